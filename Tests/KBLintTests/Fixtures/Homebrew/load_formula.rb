# Loads a formula written by Scripts/release.sh the way Homebrew would on one platform, with a
# stand-in for the few parts of Homebrew's formula DSL that the formula uses, and prints what
# Homebrew would download and run:
#   ruby load_formula.rb FORMULA macos|linux intel|arm [install]
# prints `url …`, `sha256 …` and `depends_on …` lines; with `install`, runs the formula's
# install method in the current folder (the unpacked download) and prints its steps.
$os, $arch = ARGV[1], ARGV[2]

class Formula
  class << self
    attr_reader :loaded

    def inherited(formula)
      super
      Formula.instance_variable_set(:@loaded, formula)
    end

    def fields
      @fields ||= { "depends_on" => [] }
    end

    %w[desc homepage version url sha256].each do |name|
      define_method(name) { |value| fields[name] = value }
    end

    def depends_on(requirement)
      fields["depends_on"] << requirement.inspect
    end

    def on_macos
      yield if $os == "macos"
    end

    def on_linux
      yield if $os == "linux"
    end

    def on_intel
      yield if $arch == "intel"
    end

    def on_arm
      yield if $arch == "arm"
    end

    def test; end
  end

  # `bin.install PATH`: the file must be there (Homebrew fails otherwise).
  class Bin
    def install(path)
      raise "bin.install: no #{path} in #{Dir.pwd}" unless File.exist?(path) || $built
      puts "bin.install #{path}"
    end
  end

  def bin
    Bin.new
  end

  def system(*arguments)
    $built = true
    puts "system #{arguments.join(" ")}"
  end
end

load ARGV[0]
formula = Formula.loaded
%w[url sha256].each { |name| puts "#{name} #{formula.fields[name]}" }
formula.fields["depends_on"].each { |requirement| puts "depends_on #{requirement}" }
formula.new.install if ARGV[3] == "install"

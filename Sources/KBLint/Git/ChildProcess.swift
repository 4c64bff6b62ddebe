#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// A program run to completion with its output captured: how kblint asks git questions.
/// It is started with `posix_spawn` (Foundation's `Process` would cost every run its
/// start-up), and one loop moves standard input, output and error with `poll`, so a child
/// that fills one pipe while kblint waits on another cannot deadlock (a
/// `git cat-file --batch` of many blobs does exactly that).
struct ChildProcess: Sendable {
    struct Result: Sendable {
        enum Termination: Sendable, Hashable {
            case exited(code: Int32)
            case killed(signal: Int32)
        }

        let termination: Termination
        let output: [UInt8]
        let errorOutput: [UInt8]

        /// The exit code, or 128 + the signal's number for a child killed by a signal (as
        /// shells report it), so that only a clean exit is 0.
        var status: Int32 {
            switch termination {
            case .exited(let code): code
            case .killed(let signal): 128 + signal
            }
        }

        /// Standard error without surrounding white space.
        var errorText: String {
            func isSpace(_ byte: UInt8) -> Bool { byte == UInt8(ascii: " ") || (0x09...0x0D).contains(byte) }
            guard let first = errorOutput.firstIndex(where: { !isSpace($0) }),
                  let last = errorOutput.lastIndex(where: { !isSpace($0) })
            else { return "" }
            return String(decoding: errorOutput[first...last], as: UTF8.self)
        }

        /// What went wrong, for messages: `errorText`, after the signal that killed the child
        /// if one did (a killed child often prints nothing).
        var diagnosis: String {
            guard case .killed(let signal) = termination else { return errorText }
            let killed = "killed by signal \(signal)"
            return errorText.isEmpty ? killed : killed + ": " + errorText
        }
    }

    /// Why the program could not be run.
    struct LaunchError: Error, CustomStringConvertible {
        let executable: String
        let reason: String
        var description: String { "cannot run \(executable): \(reason)" }
    }

    /// The program's absolute path (it is not looked up in `PATH`; see `locate`).
    let executable: String
    let arguments: [String]
    /// The child's working directory.
    let directory: String
    var input: [UInt8] = []
    /// Variables set on top of `baseEnvironment`.
    var environment: [String: String] = [:]
    /// The environment the child starts from; nil: this process's. It must carry what git
    /// is given inside a hook (`GIT_INDEX_FILE`, `GIT_DIR`), so kblint passes its own on.
    var baseEnvironment: [String: String]? = nil

    func run() throws(LaunchError) -> Result {
        // Writing to a child that has exited must fail with EPIPE, not kill kblint.
        signal(SIGPIPE, SIG_IGN)
        var descriptors = OpenDescriptors()
        defer { descriptors.closeAll() }  // after a failed launch
        let outputPipe = try descriptors.pipe(for: executable)
        let errorPipe = try descriptors.pipe(for: executable)
        let inputPipe = input.isEmpty ? nil : try descriptors.pipe(for: executable)
        let child = try spawn(input: inputPipe?.read, output: outputPipe.write, errors: errorPipe.write)
        descriptors.close(outputPipe.write)
        descriptors.close(errorPipe.write)
        if let inputPipe {
            descriptors.close(inputPipe.read)
            _ = fcntl(inputPipe.write, F_SETFL, fcntl(inputPipe.write, F_GETFL) | O_NONBLOCK)
        }
        let captured = exchange(
            input: inputPipe?.write, output: outputPipe.read, errors: errorPipe.read, descriptors: &descriptors)
        // Before waiting: should `exchange` have stopped early, a child still writing gets
        // EPIPE instead of blocking forever.
        descriptors.closeAll()
        var waitStatus: Int32 = 0
        while waitpid(child, &waitStatus, 0) < 0 {
            guard errno == EINTR else {
                throw LaunchError(executable: executable, reason: "cannot wait for it: \(String(cString: strerror(errno)))")
            }
        }
        // The `WIFSIGNALED`/`WTERMSIG`/`WEXITSTATUS` macros, which Swift does not import;
        // the layout is the same on Linux and Darwin.
        let terminatingSignal = waitStatus & 0x7F
        return Result(
            termination: terminatingSignal == 0
                ? .exited(code: (waitStatus >> 8) & 0xFF) : .killed(signal: terminatingSignal),
            output: captured.output, errorOutput: captured.errors)
    }

    /// Starts the program with the given pipe ends as its standard streams (standard input
    /// from `/dev/null` without `input`).
    private func spawn(input: Int32?, output: Int32, errors: Int32) throws(LaunchError) -> pid_t {
        #if canImport(Darwin)
        var actions: posix_spawn_file_actions_t? = nil
        var attributes: posix_spawnattr_t? = nil
        #else
        var actions = posix_spawn_file_actions_t()
        var attributes = posix_spawnattr_t()
        #endif
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }

        if let input {
            posix_spawn_file_actions_adddup2(&actions, input, 0)
        } else {
            posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        }
        posix_spawn_file_actions_adddup2(&actions, output, 1)
        posix_spawn_file_actions_adddup2(&actions, errors, 2)
        #if canImport(Glibc)
        guard let addChangeDirectory = GlibcExtensions.addChangeDirectory else {
            throw LaunchError(executable: executable, reason: GlibcExtensions.missing("posix_spawn_file_actions_addchdir_np"))
        }
        _ = addChangeDirectory(&actions, directory)
        #else
        posix_spawn_file_actions_addchdir_np(&actions, directory)
        #endif

        // kblint ignores SIGPIPE (see `run`); the child gets the default back, as a shell
        // would give it.
        var defaultSignals = sigset_t()
        sigemptyset(&defaultSignals)
        sigaddset(&defaultSignals, SIGPIPE)
        posix_spawnattr_setsigdefault(&attributes, &defaultSignals)
        #if canImport(Darwin)
        // Only the three streams above reach the child, whatever else is open.
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGDEF | POSIX_SPAWN_CLOEXEC_DEFAULT))
        #else
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGDEF))
        #endif

        let variables: [String]? = baseEnvironment == nil && environment.isEmpty
            ? nil
            : (baseEnvironment ?? FileSystem.environment()).merging(environment) { $1 }.map { $0.key + "=" + $0.value }
        var child: pid_t = 0
        let code = CStringList.with([executable] + arguments) { argv in
            guard let variables else {
                return posix_spawn(&child, executable, &actions, &attributes, argv, FileSystem.environmentTable)
            }
            return CStringList.with(variables) { envp in
                posix_spawn(&child, executable, &actions, &attributes, argv, envp)
            }
        }
        guard code == 0 else {
            let reason = (try? FileSystem.status(of: directory))?.kind == .directory
                ? String(cString: strerror(code))
                : "its working directory \(directory) is not a folder"
            throw LaunchError(executable: executable, reason: reason)
        }
        return child
    }

    /// Writes `input` to the child while reading its output and error, until all three pipes
    /// are closed; whichever the child is ready for is served first.
    private func exchange(
        input: Int32?, output: Int32, errors: Int32, descriptors: inout OpenDescriptors
    ) -> (output: [UInt8], errors: [UInt8]) {
        var captured: [Int32: [UInt8]] = [output: [], errors: []]
        var reading: Set<Int32> = [output, errors]
        var writing = input
        var written = 0
        var chunk = [UInt8](repeating: 0, count: 64 * 1024)
        while !reading.isEmpty || writing != nil {
            var watched = reading.map { pollfd(fd: $0, events: Int16(POLLIN), revents: 0) }
            if let writing { watched.append(pollfd(fd: writing, events: Int16(POLLOUT), revents: 0)) }
            guard poll(&watched, nfds_t(watched.count), -1) >= 0 else {
                if errno == EINTR { continue }
                break
            }
            for entry in watched where entry.revents != 0 {
                if entry.fd == writing {
                    let count = self.input.withUnsafeBytes { bytes in
                        write(entry.fd, bytes.baseAddress! + written, bytes.count - written)
                    }
                    if count >= 0 { written += count }
                    // Done, or the child closed its end (EPIPE): its exit status tells.
                    if written == self.input.count || (count < 0 && errno != EINTR && errno != EAGAIN) {
                        descriptors.close(entry.fd)
                        writing = nil
                    }
                } else {
                    let count = chunk.withUnsafeMutableBytes { read(entry.fd, $0.baseAddress, $0.count) }
                    if count > 0 {
                        captured[entry.fd, default: []].append(contentsOf: chunk[0..<count])
                    } else if count == 0 || (errno != EINTR && errno != EAGAIN) {
                        descriptors.close(entry.fd)
                        reading.remove(entry.fd)
                    }
                }
            }
        }
        return (captured[output] ?? [], captured[errors] ?? [])
    }

    /// The absolute path of `name` in the `PATH` of `environment`, or nil.
    static func locate(_ name: String, environment: [String: String]) -> String? {
        guard let searchPath = environment["PATH"] else { return nil }
        for folder in searchPath.split(separator: ":") where folder.hasPrefix("/") {
            let candidate = folder + "/" + name
            if access(candidate, X_OK) == 0, (try? FileSystem.status(of: candidate))?.kind == .regular {
                return candidate
            }
        }
        return nil
    }
}

/// The file descriptors `run` opened and has not closed yet.
private struct OpenDescriptors {
    private var open: Set<Int32> = []

    /// A pipe whose ends are closed on `exec`, so that neither leaks into this child (which
    /// gets copies as its standard streams) nor into any other.
    mutating func pipe(for executable: String) throws(ChildProcess.LaunchError) -> (read: Int32, write: Int32) {
        var ends: [Int32] = [-1, -1]
        #if canImport(Glibc)
        guard let createPipe = GlibcExtensions.createPipe else {
            throw ChildProcess.LaunchError(executable: executable, reason: GlibcExtensions.missing("pipe2"))
        }
        let failed = createPipe(&ends, O_CLOEXEC) != 0
        #elseif canImport(Musl)
        let failed = pipe2(&ends, O_CLOEXEC) != 0
        #else
        // No `pipe2` on Darwin; `POSIX_SPAWN_CLOEXEC_DEFAULT` covers the moment between
        // `pipe` and `fcntl` for children started here.
        let failed = Darwin.pipe(&ends) != 0
        if !failed { for end in ends { _ = fcntl(end, F_SETFD, FD_CLOEXEC) } }
        #endif
        guard !failed else {
            throw ChildProcess.LaunchError(executable: executable, reason: "cannot create a pipe: \(String(cString: strerror(errno)))")
        }
        open.formUnion(ends)
        return (ends[0], ends[1])
    }

    mutating func close(_ descriptor: Int32) {
        guard open.remove(descriptor) != nil else { return }
        #if canImport(Darwin)
        _ = Darwin.close(descriptor)
        #elseif canImport(Musl)
        _ = Musl.close(descriptor)
        #else
        _ = Glibc.close(descriptor)
        #endif
    }

    mutating func closeAll() {
        for descriptor in open { close(descriptor) }
    }
}

#if canImport(Glibc)
/// Functions that glibc declares only for `_GNU_SOURCE`, which Swift's Glibc module is not
/// built with, so they are looked up by name. `posix_spawn_file_actions_addchdir_np` is
/// there since glibc 2.29 (musl declares both by default; Darwin has no `pipe2`).
private enum GlibcExtensions {
    typealias CreatePipe = @convention(c) (UnsafeMutablePointer<Int32>?, Int32) -> Int32
    typealias AddChangeDirectory = @convention(c) (
        UnsafeMutablePointer<posix_spawn_file_actions_t>?, UnsafePointer<CChar>?
    ) -> Int32

    static let createPipe = function("pipe2", as: CreatePipe.self)
    static let addChangeDirectory = function("posix_spawn_file_actions_addchdir_np", as: AddChangeDirectory.self)

    static func missing(_ name: String) -> String { "the C library has no \(name) (glibc 2.29 or later is needed)" }

    private static func function<Function>(_ name: String, as type: Function.Type) -> Function? {
        dlsym(nil, name).map { unsafeBitCast($0, to: type) }
    }
}
#endif

/// NUL-terminated C strings in a NULL-terminated array, as `argv` and `envp` are passed.
private enum CStringList {
    static func with<Value>(_ strings: [String], _ body: (UnsafePointer<UnsafeMutablePointer<CChar>?>) -> Value) -> Value {
        let pointers: [UnsafeMutablePointer<CChar>?] = strings.map { strdup($0) } + [nil]
        defer { for pointer in pointers { free(pointer) } }
        return pointers.withUnsafeBufferPointer { body($0.baseAddress!) }
    }
}

/// A target without findings, to show `--target` narrows what the command plugin lints.
public struct Clean {
    public init() {}
}

import Lexer

/// A view property copied into a local, changed member by member and written back:
/// `var insets = scrollView.contentInset; insets.bottom = h; scrollView.contentInset = insets`.
/// UIKit's geometry types are structs, so this is how code edits one edge or coordinate of
/// them; the write-back is where the layout changes.
struct LocalCopyWriteBack: Sendable {
    /// Whether the copy was taken from the very property it is written back to
    /// (`var f = bar.frame … bar.frame = f`): its members then start from the current layout.
    let copiesTarget: Bool
    /// The writes to the copy's members between the copy and the write-back, in order
    /// (`insets.bottom = …`, `barFrame.origin.y -= …`).
    let memberWrites: [Assignment]
}

extension FileAnalysis {
    /// Member writes on one copy looked at per write-back: a copy written back after more of
    /// them than this is not followed.
    static let maximumCopyMemberWrites = 64

    /// The copy that `assignment` (`target = copy`) writes back, when its right-hand side is a
    /// single local `var` name.
    func localCopyWriteBack(of assignment: Assignment) -> LocalCopyWriteBack? {
        guard !assignment.isCompound, assignment.rhs.count == 1, source.kind(assignment.rhs.lowerBound) == .identifier,
              let binding = binding(referencedBy: assignment.rhs.lowerBound), binding.isVariable,
              !binding.isShorthand, let body = outline.executableScope(at: assignment.op),
              outline.executableScope(at: binding.nameToken) == body else { return nil }
        var writes: [Assignment] = []
        var index = firstIndex(in: assignments, atOrAfter: binding.nameToken) { $0.op }
        while index < assignments.count, assignments[index].op < assignment.op {
            let write = assignments[index]
            index += 1
            let names = chainNames(write.lhs)
            guard names.count > 1, names[0] == write.lhs.lowerBound, source.nameHash(names[0]) == binding.nameHash,
                  outline.executableScope(at: write.op) == body else { continue }
            writes.append(write)
            if writes.count == Self.maximumCopyMemberWrites { return nil }
        }
        guard !writes.isEmpty else { return nil }
        let copiesTarget = binding.value.map { receiverKey($0) == receiverKey(assignment.lhs) && !receiverKey($0).isEmpty }
            ?? false
        return LocalCopyWriteBack(copiesTarget: copiesTarget, memberWrites: writes)
    }

    /// The last write to the copy's member `member` (`insets.bottom`), if any.
    func lastWrite(of copy: LocalCopyWriteBack, member: StaticString) -> Assignment? {
        copy.memberWrites.last { write in
            let names = chainNames(write.lhs)
            return names.count == 2 && source.isWord(names[1], member)
        }
    }
}

import Lexer
import Rules
@testable import KBLint

/// A fixed set of findings for the reporter tests: several files (one outside the current
/// directory, one with a space in its path), every severity, a multi-line range, a message
/// with characters every format must escape, fix edits, a related location in another file,
/// and non-ASCII text before a finding's column.
enum ReportSamples {
    static let currentDirectory = "/Users/dev/Chat App"

    static let chatSource = SourceFile(path: "Sources/Chat/ChatViewController.swift", text: """
        import UIKit

        final class ChatViewController: UIViewController {
            @objc func keyboardWillShow(_ note: Notification) {
                let título = "¿Qué?"; let frame = note.userInfo?[UIResponder.keyboardFrameEndUserInfoKey] as? CGRect
                tableView.contentInset.bottom = frame?.height ?? 0
                UIView.animate(withDuration: 0.25,
                               animations: { self.view.layoutIfNeeded() })
            }
        }

        """)

    static let observerSource = SourceFile(path: "Sources/Keyboard Helpers/KeyboardObserver.swift", text: """
        import UIKit

        struct KeyboardObserver {
            static let duration: TimeInterval = 0.25
            func start() {
                NotificationCenter.default.addObserver(forName: UIResponder.keyboardWillShowNotification, object: nil, queue: .main) { _ in }
            }
        }

        """)

    static let generatedSource = SourceFile(path: "/opt/shared/Generated/Keyboard+Frame.swift", text: """
        extension Notification {
        \tvar keyboardFrame: CGRect { (userInfo?[UIResponder.keyboardFrameEndUserInfoKey] as? NSValue)?.cgRectValue ?? .zero }
        }

        """)

    static let rules: [RuleMetadata] = [
        metadata("sample_unconverted_frame", .geometry, .warning,
                 summary: "Keyboard frame used without converting it to the view's coordinates."),
        metadata("sample_hardcoded_duration", .animation, .error,
                 summary: "Animation alongside the keyboard with a hard-coded duration."),
        metadata("sample_inset_ignores_safe_area", .geometry, .info,
                 summary: "Bottom inset set to the keyboard height without the safe area."),
        metadata("sample_dropped_observer_token", .observers, .warning,
                 summary: "Block-based observer whose token is discarded."),
    ]

    static func metadata(
        _ id: String, _ category: RuleCategory, _ severity: Severity, summary: String
    ) -> RuleMetadata {
        RuleMetadata(
            id: id, category: category, defaultSeverity: severity, summary: summary,
            rationale: "Test rule \(id): the keyboard covers the field on some devices.",
            fix: "Do what \(id) suggests.", triggering: [], nonTriggering: [])
    }

    /// Byte range of the `occurrence`-th appearance of `text` in `file`.
    static func range(of text: String, in file: SourceFile, occurrence: Int = 0) -> Range<Int> {
        let needle = Array(text.utf8)
        var found = 0
        for start in 0...(file.bytes.count - needle.count)
        where Array(file.bytes[start..<start + needle.count]) == needle {
            if found == occurrence { return start..<start + needle.count }
            found += 1
        }
        fatalError("\(text) not in \(file.path)")
    }

    static func finding(
        _ diagnostic: Diagnostic, in file: SourceFile,
        relatedFile: (String) -> (file: SourceFile, path: String)? = { _ in nil }
    ) -> Finding {
        let absolutePath = file.path.hasPrefix("/") ? file.path : currentDirectory + "/" + file.path
        return Finding(
            diagnostic: diagnostic, lines: LineTexts(file), path: file.path, absolutePath: absolutePath,
            relatedFile: relatedFile)
    }

    static var findings: [Finding] {
        let chat = chatSource, observer = observerSource, generated = generatedSource
        let frameRead = "note.userInfo?[UIResponder.keyboardFrameEndUserInfoKey] as? CGRect"
        let animation = "UIView.animate(withDuration: 0.25,\n                       animations: { self.view.layoutIfNeeded() })"
        let inset = "frame?.height ?? 0"
        return [
            finding(Diagnostic(
                ruleID: "sample_dropped_observer_token", severity: .warning,
                message: "The token returned by addObserver(forName:object:queue:using:) is discarded, so the observer can never be removed.",
                range: range(of: "NotificationCenter.default.addObserver", in: observer),
                suggestion: "Keep the token and pass it to removeObserver(_:)."
            ), in: observer),
            finding(Diagnostic(
                ruleID: "sample_unconverted_frame", severity: .warning,
                message: "`frame` is in screen coordinates; convert it with view.convert(_:from: nil) before using it.",
                range: range(of: frameRead, in: chat),
                suggestion: "Convert the frame: view.convert(frame, from: view.window?.screen.coordinateSpace)."
            ), in: chat),
            finding(Diagnostic(
                ruleID: "sample_hardcoded_duration", severity: .error,
                message: "The animation runs 0.25 s, not the keyboard's duration.",
                range: range(of: animation, in: chat),
                suggestion: "Read keyboardAnimationDurationUserInfoKey and animate with its curve.",
                fix: Fix(.unsafe, edits: [Edit(range: range(of: "0.25", in: chat), replacement: "duration")]),
                related: [RelatedLocation(
                    path: observer.path, range: range(of: "0.25", in: observer),
                    message: "the duration is hard-coded here")]
            ), in: chat, relatedFile: { $0 == observer.path ? (observer, observer.path) : nil }),
            finding(Diagnostic(
                ruleID: "sample_inset_ignores_safe_area", severity: .info,
                message: "Inset \"bottom\" uses 100% of the keyboard's height: subtract <safeAreaInsets.bottom> & check,\nthen re-layout.",
                range: range(of: inset, in: chat),
                suggestion: "Subtract view.safeAreaInsets.bottom, not below 0.",
                fix: Fix(.safe, edits: [Edit(
                    range: range(of: inset, in: chat),
                    replacement: "max((frame?.height ?? 0) - view.safeAreaInsets.bottom, 0)")])
            ), in: chat),
            finding(Diagnostic(
                ruleID: "sample_unconverted_frame", severity: .warning,
                message: "The keyboard frame accessor returns screen coordinates.",
                range: range(of: "(userInfo?[UIResponder.keyboardFrameEndUserInfoKey] as? NSValue)?.cgRectValue", in: generated),
                suggestion: "Convert the frame where it is used.",
                related: [RelatedLocation(range: range(of: "keyboardFrame", in: generated), message: "accessor declared here")]
            ), in: generated),
        ]
    }

    static func report(settings: ReportSettings? = nil) -> LintReport {
        LintReport(
            findings: findings, rules: rules, filesLinted: 7, toolVersion: "0.1.0-test",
            settings: settings ?? ReportSettings(useColor: false, pathRoot: currentDirectory))
    }
}

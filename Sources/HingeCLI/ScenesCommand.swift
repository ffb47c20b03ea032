import ArgumentScanning
import Glibc
import JSON
import SwiftUIBridge

/// Options of `hinge scenes PATH…` (docs/swiftui.md#scenes-command).
public struct ScenesCommandOptions: Sendable, Equatable {
    public var paths: [String] = []
    /// `--jobs`: threads that parse and read.
    public var jobs = SwiftUIReader.processors

    public init(paths: [String] = []) { self.paths = paths }

    public static var usage: String { table.usage }

    public static func parse(_ arguments: [String]) throws(UsageError) -> ScenesCommandOptions {
        var o = ScenesCommandOptions()
        var paths: [String] = []
        // `hinge scenes` reads no environment variable.
        let noEnvironment: (String) -> String? = { _ in nil }
        try table.parse(arguments, into: &o, environment: noEnvironment) { p throws(UsageError) in paths.append(p) }
        o.paths = paths
        if o.paths.isEmpty { throw UsageError("no path given (see hinge scenes --help)") }
        return o
    }

    /// The options of `hinge scenes`: parsing and `--help` come from it.
    public static let table = OptionTable<ScenesCommandOptions>(
        command: "scenes",
        header: """
            USAGE: hinge scenes PATH… [options]

            Reads SwiftUI source and prints the scenes its views present, as JSON (docs/swiftui.md): for each view
            that presents or arranges, one scene per chain of presentations, with the line and column where each
            member is written, what cannot be known without running the code ("unresolved"), and findings read from
            the source ("present-by-item"). Each scene is a body for `hinge resolve` on an iPhone 16; the layout facts
            code does not say (a popover's anchor, a measured content size) are stand-ins it lists as unresolved.

            A PATH is a Swift file or a directory searched recursively for *.swift files in name order (hidden
            entries skipped); paths are shown as given. Only files that can present are parsed, on every core.
            """,
        helpColumn: 13,
        sections: [
            .init(
                "OPTIONS:",
                [
                    .one("--jobs", "N", help: "threads that parse (1…64, default: the number of processors)") {
                        o, v, _ throws(UsageError) in
                        guard let n = Int(v), (1...64).contains(n) else {
                            throw UsageError("--jobs must be an integer in 1...64, got '\(TerminalText.escaped(v))'")
                        }
                        o.jobs = n
                    }
                ])
        ],
        footer: "EXIT STATUS: 0 read; 2 usage error, or a path that cannot be read.")
}

/// `hinge scenes`: the files found, read, and the report printed.
public enum ScenesCommandRunner {
    /// The most bytes read from one Swift file.
    static let maxFileBytes = 16 * 1024 * 1024

    public static func run(_ options: ScenesCommandOptions) -> CommandOutput {
        var files: [SwiftSourceFile] = []
        do {
            for path in options.paths {
                for file in try swiftFiles(path) {
                    files.append(SwiftSourceFile(path: file, bytes: try CLIFiles.read(file, limit: maxFileBytes)))
                }
            }
        } catch {
            return .failure("hinge scenes: \(error.message)", exitCode: 2)
        }
        let report = SwiftUIReader.read(files, jobs: options.jobs)
        return CommandOutput(
            exitCode: 0, stdout: JSONWriter.encode(report.json(context: .standard), options: .pretty) + [0x0A])
    }

    /// `path` itself when it is not a directory; else the `.swift` files under it, in name order, hidden entries
    /// skipped and symbolic links to directories not followed.
    static func swiftFiles(_ path: String) throws(CLIError) -> [String] {
        var st = stat()
        guard stat(path, &st) == 0 else {
            throw CLIError("cannot read \(TerminalText.escaped(path)): \(String(cString: strerror(errno)))")
        }
        guard (st.st_mode & S_IFMT) == S_IFDIR else { return [path] }
        var found: [String] = []
        try walk(path, into: &found)
        return found
    }

    private static func walk(_ directory: String, into found: inout [String]) throws(CLIError) {
        guard let dir = opendir(directory) else {
            throw CLIError("cannot read \(TerminalText.escaped(directory)): \(String(cString: strerror(errno)))")
        }
        var names: [String] = []
        while let entry = readdir(dir) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { raw in
                String(decoding: raw.prefix { $0 != 0 }, as: UTF8.self)
            }
            if name.hasPrefix(".") { continue }
            names.append(name)
        }
        closedir(dir)
        for name in names.sorted(by: { $0.utf8.lexicographicallyPrecedes($1.utf8) }) {
            let path = directory.hasSuffix("/") ? directory + name : directory + "/" + name
            var st = stat()
            guard lstat(path, &st) == 0 else { continue }
            switch st.st_mode & S_IFMT {
            case S_IFDIR: try walk(path, into: &found)
            case S_IFREG, S_IFLNK:
                if name.hasSuffix(".swift") { found.append(path) }
            default: break
            }
        }
    }
}

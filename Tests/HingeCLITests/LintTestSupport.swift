import ArgumentScanning
import Glibc
import TestSupport

@testable import HingeCLI

/// A temporary project directory for lint tests: files written by relative path (parents created), removed with
/// everything under it on deinit.
final class LintProject {
    let path: String

    init() {
        var template = Array("/tmp/hinge-lint-XXXXXX".utf8CString)
        let made = template.withUnsafeMutableBufferPointer { mkdtemp($0.baseAddress!) }
        path = made.map { String(cString: $0) } ?? "/tmp/hinge-lint-\(getpid())-\(UInt32.random(in: 0...UInt32.max))"
    }

    deinit { LintProject.remove(path) }

    func file(_ name: String) -> String { path + "/" + name }

    func write(_ name: String, _ text: String) { write(name, Array(text.utf8)) }

    func write(_ name: String, _ bytes: [UInt8]) {
        try? LintFileSystem.makeDirectories(LintPaths.parent(file(name)))
        writeFile(file(name), bytes)
    }

    func read(_ name: String) -> String? { readFile(file(name)).map { String(decoding: $0, as: UTF8.self) } }

    static func remove(_ path: String) {
        if let dir = opendir(path) {
            var names: [String] = []
            while let entry = readdir(dir) {
                let name = withUnsafeBytes(of: entry.pointee.d_name) { raw in
                    String(decoding: raw.prefix { $0 != 0 }, as: UTF8.self)
                }
                if name != "." && name != ".." { names.append(name) }
            }
            closedir(dir)
            for name in names {
                let child = path + "/" + name
                if LintFileSystem.kind(child) == .directory { remove(child) } else { unlink(child) }
            }
        }
        rmdir(path)
    }

    /// What one `hinge lint` run printed and returned.
    struct Run {
        var status: Int32
        var stdout: String
        var stderr: String

        /// The text reporter's finding lines.
        var findingLines: [Substring] {
            stdout.split(separator: "\n").filter { $0.contains(": ") && $0.contains(" [") }
        }
    }

    /// Runs `hinge lint ARGS` with this directory as the working directory, as the executable does (a usage error is
    /// exit 2 with one line).
    func lint(
        _ arguments: [String], environment: [String: String] = [:], terminal: Bool = false,
        clock: @escaping () -> UInt64 = { 0 }, in directory: String = ""
    ) -> Run {
        let out = LintOutput.memory(name: "stdout")
        let err = LintOutput.memory(name: "stderr")
        let status: Int32
        do throws(UsageError) {
            let options = try LintOptions.parse(arguments, environment: { environment[$0] })
            let env = LintEnvironment(
                currentDirectory: directory.isEmpty ? path : file(directory), variable: { environment[$0] },
                stdout: out, stderr: err,
                stderrIsTerminal: terminal, clock: clock)
            status = LintRunner.run(options, environment: env)
        } catch {
            err.write("hinge lint: \(error.message)\n")
            status = 2
        }
        return Run(status: status, stdout: out.text, stderr: err.text)
    }
}

extension LintProject {
    /// Runs `git ARGS` in `directory` (relative to the project), as a user's shell would; true when it exits 0.
    @discardableResult
    func git(_ arguments: [String], in directory: String = "") -> Bool {
        run(["git", "-C", directory.isEmpty ? path : file(directory)] + arguments)
    }

    /// Makes `directory` a git repository with `git init`, as a user does.
    func gitInit(_ directory: String = "") -> Bool {
        try? LintFileSystem.makeDirectories(directory.isEmpty ? path : file(directory))
        return git(["init", "--quiet"], in: directory)
    }

    /// A symbolic link `name` (relative to the project) to `target` (as written in the link).
    func symlink(_ name: String, to target: String) {
        try? LintFileSystem.makeDirectories(LintPaths.parent(file(name)))
        _ = Glibc.symlink(target, file(name))
    }

    /// Runs a program found on the PATH, its output discarded; true when it exits 0.
    private func run(_ arguments: [String]) -> Bool {
        var pid = pid_t()
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 1, "/dev/null", O_WRONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 2, "/dev/null", O_WRONLY, 0)
        var argv: [UnsafeMutablePointer<CChar>?] = arguments.map { strdup($0) } + [nil]
        defer { for a in argv { free(a) } }
        guard posix_spawnp(&pid, arguments[0], &actions, nil, &argv, environ) == 0 else { return false }
        var status: Int32 = 0
        while waitpid(pid, &status, 0) < 0 && errno == EINTR {}
        return status == 0
    }
}

/// A clock that moves on by `step` nanoseconds each time it is read.
final class SteppingClock: @unchecked Sendable {
    // Read by one thread only (the run's consuming thread).
    private var now: UInt64 = 0
    let step: UInt64

    init(step: UInt64) { self.step = step }

    func read() -> UInt64 {
        now += step
        return now
    }
}

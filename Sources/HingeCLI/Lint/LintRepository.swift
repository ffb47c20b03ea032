import Glibc

/// Where a run stands (docs/lint.md#repository): the repository root (`--root`, else the nearest directory holding
/// `.git`), how far up the configuration is looked for, and whether a path stays inside a directory once its symbolic
/// links are followed — the check that keeps `--update-baseline`, `--update-snapshots` and scene symlinks inside the
/// project.
enum LintRepository {
    /// The nearest directory at or above `directory` (absolute, normalised) that holds `.git` — a directory, or the
    /// file a worktree or a submodule has.
    static func root(containing directory: String) -> String? {
        var dir = directory
        while true {
            var st = stat()
            if lstat((dir == "/" ? "" : dir) + "/.git", &st) == 0 { return dir }
            if dir == "/" { return nil }
            dir = LintPaths.parent(dir)
        }
    }

    /// The repository root of a run: `--root`, else that of the working directory, else that of the first path.
    static func root(option: String?, cwd: String, paths: [String]) -> String? {
        if let option { return LintPaths.absolute(option, base: cwd) }
        if let r = root(containing: cwd) { return r }
        guard let first = paths.first else { return nil }
        let absolute = LintPaths.absolute(first, base: cwd)
        return root(containing: LintFileSystem.kind(absolute) == .directory ? absolute : LintPaths.parent(absolute))
    }

    /// The directories searched for `hinge-lint.json` for the linted `path`: its own directory (the path, when it is
    /// one) and its parents, up to and including the repository root; outside a repository, up to the working
    /// directory when the path is under it, else the path's directory alone. Never above the repository.
    static func configSearch(for path: String, cwd: String, repository: String?) -> [String] {
        let start = LintFileSystem.kind(path) == .directory ? path : LintPaths.parent(path)
        let stop: String
        if let repository, isUnder(start, repository) {
            stop = repository
        } else if let own = root(containing: start) {
            stop = own
        } else {
            stop = isUnder(start, cwd) ? cwd : start
        }
        var out: [String] = []
        var dir = start
        while true {
            out.append(dir)
            if dir == stop || dir == "/" { return out }
            dir = LintPaths.parent(dir)
        }
    }

    /// Whether `path` is `directory` or below it (both absolute, normalised; no symbolic links followed).
    static func isUnder(_ path: String, _ directory: String) -> Bool {
        directory == "/" || path == directory || path.hasPrefix(directory + "/")
    }

    /// `path` with every symbolic link followed (`realpath`), nil when it does not exist.
    static func realPath(_ path: String) -> String? {
        guard let resolved = Glibc.realpath(path, nil) else { return nil }
        defer { free(resolved) }
        return String(cString: resolved)
    }

    /// Whether `path` (absolute) stays inside `directory` once the symbolic links of its existing part are followed;
    /// the part that does not exist yet is what a write would create under it. A dangling symbolic link on the way
    /// is outside: where a write through it lands is not known.
    static func resolvesInside(_ path: String, _ directory: String) -> Bool {
        guard let base = realPath(directory) else { return false }
        var existing = LintPaths.normalize(path)
        var rest: [Substring] = []
        while true {
            if let resolved = realPath(existing) {
                let full = rest.isEmpty ? resolved : resolved + "/" + rest.reversed().joined(separator: "/")
                return isUnder(LintPaths.normalize(full), base)
            }
            var st = stat()
            if lstat(existing, &st) == 0 { return false }  // there, yet not resolvable: a dangling link
            if existing == "/" { return false }
            guard let slash = existing.lastIndex(of: "/") else { return false }
            rest.append(existing[existing.index(after: slash)...])
            existing = LintPaths.parent(existing)
        }
    }
}

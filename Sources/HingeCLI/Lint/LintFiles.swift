import Glibc

/// Paths as the lint handles them: absolute and normalised for matching, relative for showing.
enum LintPaths {
    static func currentDirectory() -> String {
        var buffer = [CChar](repeating: 0, count: Int(PATH_MAX) + 1)
        guard getcwd(&buffer, buffer.count) != nil else { return "/" }
        return String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    /// `path` made absolute against `base` and normalised (no `.`, `..` or repeated `/`).
    static func absolute(_ path: String, base: String) -> String {
        normalize(path.hasPrefix("/") ? path : base + "/" + path)
    }

    static func normalize(_ path: String) -> String {
        var parts: [Substring] = []
        for part in path.split(separator: "/", omittingEmptySubsequences: true) {
            if part == "." { continue }
            if part == ".." {
                if !parts.isEmpty { parts.removeLast() }
                continue
            }
            parts.append(part)
        }
        return "/" + parts.joined(separator: "/")
    }

    /// `path` (absolute, normalised) relative to `root` (the same): `scenes/a.json`, or `../other/a.json`.
    static func relative(_ path: String, to root: String) -> String {
        let p = path.split(separator: "/")
        let r = root.split(separator: "/")
        var common = 0
        while common < p.count, common < r.count, p[common] == r[common] { common += 1 }
        let up = Array(repeating: "..", count: r.count - common)
        return (up + p[common...].map(String.init)).joined(separator: "/")
    }

    static func parent(_ path: String) -> String {
        guard let slash = path.lastIndex(of: "/") else { return "." }
        return slash == path.startIndex ? "/" : String(path[..<slash])
    }

    /// `path` as shown: without a leading `./`.
    static func display(_ path: String) -> String {
        var p = Substring(path)
        while p.hasPrefix("./") { p = p.dropFirst(2) }
        return p.isEmpty ? "." : String(p)
    }
}

/// A scene file to lint: the path shown, the absolute one, and the key the baseline and snapshots use.
struct LintSource: Sendable, Equatable {
    var displayPath: String
    var absolutePath: String
    var key: String
}

/// File access of the lint: finding scene files, reading them with a size limit, writing reports atomically.
enum LintFileSystem {
    enum Kind { case file, directory, missing }

    static func kind(_ path: String) -> Kind {
        var st = stat()
        guard stat(path, &st) == 0 else { return .missing }
        return (st.st_mode & S_IFMT) == S_IFDIR ? .directory : .file
    }

    /// The scene files of `paths`: a file as named, a directory searched recursively for `*.json` (entries sorted by
    /// name, hidden ones skipped, and `skip` consulted for each path). Throws for a path that does not exist or a
    /// directory that cannot be read.
    static func sources(
        _ paths: [String], cwd: String, root: String, skip: (_ absolute: String, _ key: String) -> Bool
    ) throws(CLIError) -> [LintSource] {
        var out: [LintSource] = []
        var visited: Set<[UInt64]> = []
        for path in paths {
            let absolute = LintPaths.absolute(path, base: cwd)
            switch kind(absolute) {
            case .missing:
                throw CLIError("cannot read \(path): \(CLIFiles.errnoText())")
            case .file:
                out.append(
                    LintSource(
                        displayPath: LintPaths.display(path), absolutePath: absolute,
                        key: LintPaths.relative(absolute, to: root)))
            case .directory:
                try walk(
                    display: LintPaths.display(path), absolute: absolute, root: root, skip: skip, visited: &visited,
                    into: &out)
            }
        }
        return out
    }

    private static func walk(
        display: String, absolute: String, root: String, skip: (String, String) -> Bool, visited: inout Set<[UInt64]>,
        into out: inout [LintSource]
    ) throws(CLIError) {
        var st = stat()
        guard stat(absolute, &st) == 0 else { throw CLIError("cannot read \(display): \(CLIFiles.errnoText())") }
        // A directory reached twice (a symbolic link back up the tree) is searched once.
        guard visited.insert([UInt64(st.st_dev), UInt64(st.st_ino)]).inserted else { return }
        guard let dir = opendir(absolute) else { throw CLIError("cannot read \(display): \(CLIFiles.errnoText())") }
        var names: [String] = []
        while let entry = readdir(dir) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { raw in
                String(decoding: raw.prefix { $0 != 0 }, as: UTF8.self)
            }
            if !name.hasPrefix(".") { names.append(name) }
        }
        closedir(dir)
        names.sort { $0.utf8.lexicographicallyPrecedes($1.utf8) }
        for name in names {
            let childAbsolute = absolute + "/" + name
            let childDisplay = display == "." ? name : display + "/" + name
            let key = LintPaths.relative(childAbsolute, to: root)
            if skip(childAbsolute, key) { continue }
            switch kind(childAbsolute) {
            case .directory:
                try walk(
                    display: childDisplay, absolute: childAbsolute, root: root, skip: skip, visited: &visited,
                    into: &out)
            case .file where name.hasSuffix(".json"):
                out.append(LintSource(displayPath: childDisplay, absolutePath: childAbsolute, key: key))
            default: break
            }
        }
    }

    /// What reading a scene file gave.
    enum Read {
        case bytes([UInt8])
        /// Larger than `limit`: its size.
        case tooLarge(Int)
        case failed(String)
    }

    /// The bytes of `path`, unless it is larger than `limit` bytes.
    static func read(_ path: String, limit: Int) -> Read {
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { return .failed(CLIFiles.errnoText()) }
        defer { close(fd) }
        var st = stat()
        if fstat(fd, &st) == 0, Int(st.st_size) > limit { return .tooLarge(Int(st.st_size)) }
        var out: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 64 * 1024)
        while true {
            let n = chunk.withUnsafeMutableBytes { Glibc.read(fd, $0.baseAddress, $0.count) }
            if n == 0 { return .bytes(out) }
            if n < 0 {
                if errno == EINTR { continue }
                return .failed(CLIFiles.errnoText())
            }
            out.append(contentsOf: chunk[0..<n])
            if out.count > limit { return .tooLarge(out.count) }
        }
    }

    /// Creates `path` and its missing parents.
    static func makeDirectories(_ path: String) throws(CLIError) {
        if kind(path) == .directory { return }
        let parent = LintPaths.parent(path)
        if parent != path && parent != "/" && parent != "." { try makeDirectories(parent) }
        if mkdir(path, 0o755) != 0 && errno != EEXIST {
            throw CLIError("cannot create the directory \(path): \(CLIFiles.errnoText())")
        }
    }

    /// Writes `bytes` to `path` through a temporary file renamed over it, so a reader never sees half a file.
    static func writeAtomically(_ bytes: [UInt8], to path: String) throws(CLIError) {
        try makeDirectories(LintPaths.parent(path))
        let temporary = path + ".tmp-\(getpid())"
        let fd = open(temporary, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644)
        guard fd >= 0 else { throw CLIError("cannot write \(path): \(CLIFiles.errnoText())") }
        let written = CLIFiles.write(bytes, to: fd)
        close(fd)
        guard written, rename(temporary, path) == 0 else {
            let reason = CLIFiles.errnoText()
            unlink(temporary)
            throw CLIError("cannot write \(path): \(reason)")
        }
    }
}

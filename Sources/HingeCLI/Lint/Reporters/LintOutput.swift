import Glibc

/// Where a reporter writes: a file descriptor behind a buffer (flushed every 64 KiB, so a report of any size takes
/// bounded memory), or memory (tests read it back).
public final class LintOutput {
    enum Target {
        case descriptor(Int32, owned: Bool)
        case memory
    }

    private let target: Target
    private var buffer: [UInt8] = []
    /// Everything written, for a memory target.
    public private(set) var written: [UInt8] = []
    /// Why a write failed (reported once at the end of the run), nil while all went well.
    public private(set) var failure: String?
    let name: String

    static let flushSize = 64 * 1024

    init(_ target: Target, name: String) {
        self.target = target
        self.name = name
        buffer.reserveCapacity(Self.flushSize)
    }

    /// Standard output or error, not closed at the end.
    public static func descriptor(_ fd: Int32, name: String) -> LintOutput {
        LintOutput(.descriptor(fd, owned: false), name: name)
    }

    public static func memory(name: String = "memory") -> LintOutput { LintOutput(.memory, name: name) }

    /// A file created (or truncated) at `path`, `-` being standard output.
    static func file(_ path: String, stdout: LintOutput) throws(CLIError) -> LintOutput {
        if path == "-" { return stdout }
        let fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644)
        guard fd >= 0 else { throw CLIError("cannot write \(path): \(CLIFiles.errnoText())") }
        return LintOutput(.descriptor(fd, owned: true), name: path)
    }

    public func write(_ s: String) {
        var s = s
        s.withUTF8 { write($0) }
    }

    public func write(_ bytes: [UInt8]) { bytes.withUnsafeBufferPointer { write($0) } }

    func write(_ bytes: UnsafeBufferPointer<UInt8>) {
        if case .memory = target {
            written.append(contentsOf: bytes)
            return
        }
        buffer.append(contentsOf: bytes)
        if buffer.count >= Self.flushSize { flush() }
    }

    public func flush() {
        guard case .descriptor(let fd, _) = target, !buffer.isEmpty else { return }
        if failure == nil, !CLIFiles.write(buffer, to: fd) {
            failure = "cannot write \(name): \(CLIFiles.errnoText())"
        }
        buffer.removeAll(keepingCapacity: true)
    }

    /// Flushes, and closes a file this output opened.
    func close() {
        flush()
        if case .descriptor(let fd, owned: true) = target, Glibc.close(fd) != 0, failure == nil {
            failure = "cannot write \(name): \(CLIFiles.errnoText())"
        }
    }

    public var text: String { String(decoding: written, as: UTF8.self) }
}

import Glibc

/// One line per request (`GET /healthz 200 57us`), buffered and written once per loop iteration.
struct AccessLog {
    let fileDescriptor: Int32
    private var buffer: [UInt8] = []

    init(fileDescriptor: Int32) {
        self.fileDescriptor = fileDescriptor
    }

    mutating func log(method: String, path: String, status: Int, micros: Int) {
        buffer.appendString(method)
        buffer.append(32)
        buffer.appendString(path)
        buffer.append(32)
        buffer.appendDecimal(status)
        buffer.append(32)
        buffer.appendDecimal(micros)
        buffer.append(contentsOf: [117, 115, 10])  // "us\n"
    }

    mutating func flush() {
        guard !buffer.isEmpty else { return }
        buffer.withUnsafeBytes { _ = writeFully($0, to: fileDescriptor) }  // a failed log write is dropped
        buffer.removeAll(keepingCapacity: true)
    }
}

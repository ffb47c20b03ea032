// libFuzzer target for HTTPParser, compiled together with the parser's source files (see Fuzz/build.sh).
//
// Invariants checked on every input (a violation traps, which libFuzzer reports as a crash):
// - no crash, no trap, no unbounded growth on any bytes;
// - feeding the input whole or split in two (at a point chosen by the input) yields the same requests
//   and the same "refused or not" outcome;
// - after an error the parser produces nothing more.

private func run(_ pieces: [[UInt8]], _ limits: HTTPParser.Limits) -> (requests: [HTTPRequest], failed: Bool) {
    var parser = HTTPParser(limits: limits)
    var requests: [HTTPRequest] = []
    var failed = false
    for piece in pieces {
        parser.append(piece)
        while let event = parser.next() {
            switch event {
            case .request(let r):
                if failed { fatalError("request after an error") }
                requests.append(r)
            case .expectContinue:
                break
            case .error(let e):
                if failed { fatalError("two errors") }
                if e.status.code < 400 || e.status.code > 599 { fatalError("bad status \(e.status)") }
                failed = true
            }
        }
    }
    return (requests, failed)
}

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let bytes = Array(UnsafeBufferPointer(start: data, count: size))
    // Small limits so the fuzzer reaches every limit path quickly.
    let limits = HTTPParser.Limits(
        maxRequestLineBytes: 256, maxHeaderBlockBytes: 512, maxHeaderFields: 8, maxBodyBytes: 512)
    let whole = run([bytes], limits)
    if size > 1 {
        let cut = 1 + Int(bytes[0]) % (size - 1)
        let split = run([Array(bytes[..<cut]), Array(bytes[cut...])], limits)
        if split.requests != whole.requests || split.failed != whole.failed {
            fatalError("whole and split parses differ at \(cut)")
        }
    }
    return 0
}

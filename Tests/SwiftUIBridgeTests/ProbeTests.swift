import SwiftUIBridge
import Testing

@Suite struct ProbeTests {
    @Test func parses() {
        let r = SwiftUIReader.read([SwiftSourceFile(path: "a.swift", bytes: Array("let a = 1\nlet b = 2".utf8))])
        #expect(r.files == 1)
    }
}

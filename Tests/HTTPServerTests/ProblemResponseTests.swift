import Testing

@testable import HTTPServer

@Suite struct ProblemResponseTests {
    @Test func aProblemIsNotStoredUnlessTheCallerSaysOtherwise() {
        #expect(HTTPResponse.problem(status: .uriTooLong, detail: "long").headers["Cache-Control"] == "no-store")
        #expect(HTTPResponse.problem(status: .notFound, detail: "x").headers.values("Cache-Control") == ["no-store"])
        let given = HTTPResponse.problem(
            status: .serviceUnavailable, detail: "x", headers: ["Cache-Control": "max-age=1"])
        #expect(given.headers.values("Cache-Control") == ["max-age=1"])
        #expect(given.headers["Content-Type"] == "application/problem+json")
    }
}

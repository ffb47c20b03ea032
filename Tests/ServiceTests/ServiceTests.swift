import HTTPServer
import Testing

@testable import Service

/// The byte check `RouteError.requireJSON` takes first must accept exactly `application/json` with or
/// without parameters, in any case, and leave everything else to the general check.
@Suite struct MediaTypeTests {
    @Test(arguments: [
        "application/json", "Application/JSON", "application/json; charset=utf-8", "application/json;x=1",
    ])
    func plainJSON(_ value: String) { #expect(isPlainJSONMediaType(value)) }

    /// Left to the general check (which refuses `application/json +xml`, a type ending in `+xml`).
    @Test(arguments: [
        "", "application/jso", "application/jsonx", "application/json-seq", "text/json", "application/xml",
        "application/json +xml", "application/json ",
    ])
    func notPlainJSON(_ value: String) { #expect(!isPlainJSONMediaType(value)) }

    @Test func theGeneralCheckStillRefusesWhatTheFastPathLeavesIt() throws {
        var request = HTTPRequest(method: .POST, path: "/v1/resolve")
        request.headers = ["Content-Type": "application/json +xml"]
        #expect(throws: RouteError.self) { try RouteError.requireJSON(request) }
        do throws(RouteError) { try RouteError.requireJSON(request) } catch {
            #expect(error.status == .unsupportedMediaType)
        }
        request.headers = ["Content-Type": "Application/JSON; charset=utf-8"]
        #expect(throws: Never.self) { try RouteError.requireJSON(request) }
    }
}

import Testing
@testable import Service

/// The byte check `Problem.unsupportedMediaType` takes first must accept exactly `application/json` with or
/// without parameters, in any case, and leave everything else to the general check.
@Suite struct MediaTypeTests {
    @Test(arguments: ["application/json", "Application/JSON", "application/json; charset=utf-8", "application/json;x=1"])
    func plainJSON(_ value: String) { #expect(isPlainJSONMediaType(value)) }

    @Test(arguments: ["", "application/jso", "application/jsonx", "application/json-seq", "text/json", "application/xml"])
    func notPlainJSON(_ value: String) { #expect(!isPlainJSONMediaType(value)) }
}

import Testing
@testable import JSON

@Test func smoke() throws {
    let v = try JSONParser.parse(#"{"b": [1, 2.5, -0, 1e21, "x\n\u00e9\ud83d\ude00"], "a": null, "c": true}"#)
    print(JSONWriter.string(v))
    print(JSONWriter.string(v, options: .pretty))
    do { _ = try JSONParser.parse("{\n  \"a\": 1,\n  \"b\": }") } catch { print(error) }
    #expect(try JSONParser.parse(JSONWriter.string(v)) == v)
}

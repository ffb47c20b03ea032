// libFuzzer target: any bytes → JSON parser → DeviceProfile.decode (the validation of PUT /v1/devices/{id}).
//
// Invariants: nothing traps; a refused profile has at least one error; an accepted profile re-encodes to
// JSON that decodes to the same profile (what the Store writes is what it reads back), and every display
// has a positive size and a fold inside it.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let bytes = Array(UnsafeBufferPointer(start: data, count: size))
    guard let value = try? JSONParser.parse(bytes) else { return 0 }
    let mapper = JSONMapper()
    guard let profile = DeviceProfile.decode(value, mapper: mapper) else {
        if mapper.errors.isEmpty { fatalError("refused without an error") }
        return 0
    }
    if !mapper.errors.isEmpty { fatalError("accepted with errors") }
    let again = JSONMapper()
    guard let back = DeviceProfile.decode(try! JSONParser.parse(JSONWriter.encode(profile.json)), mapper: again),
        back == profile
    else { fatalError("round trip changed the profile: \(again.errors)") }
    for d in profile.displays {
        if !(d.width > 0 && d.height > 0) { fatalError("non-positive display") }
        if let f = d.fold {
            let extent = f.orientation == .vertical ? d.width : d.height
            if !(f.position > 0 && f.position < extent) { fatalError("fold outside the display") }
        }
    }
    return 0
}

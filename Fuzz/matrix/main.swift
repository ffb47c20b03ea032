// libFuzzer target: any bytes → POST /v1/resolve/matrix's path (Matrix.plan → Matrix.run, the JSON parser,
// Scene.decode and the engine under every combination). Compiled as one module with the JSON,
// LayoutEngine sources and the core's Matrix, Resolver and Problem (Fuzz/build.sh).
// Small budgets, so that each input runs fast and the refusals past them are reached too.
//
// Invariants (a violation traps, which libFuzzer reports as a crash):
// - nothing traps, whatever the bytes;
// - the answer is 200, 400 or 422, and its body is JSON;
// - a refusal (422) lists at least one error, each with a message;
// - a 200 has one result per planned combination, within the combination, work and byte budgets, and its
//   bytes are the writer's canonical encoding of themselves (sorted keys, compact);
// - planning and resolving in one call give the same bytes as the two steps.
let catalog = loadFixtureCatalog()
let limits = Matrix.Limits(maxWork: 20_000, maxResponseBytes: 256 * 1024)

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let bytes = Array(UnsafeBufferPointer(start: data, count: size))
    let out = Matrix.resolve(body: bytes, catalog: catalog, limits: limits)
    let status = out.problemKind?.status ?? 200
    guard [200, 400, 422].contains(status) else { fatalError("status \(status)") }
    guard let value = try? JSONParser.parse(out.json) else { fatalError("the answer is not JSON") }
    if status == 422 {
        guard case .array(let errors)? = value["errors"], !errors.isEmpty else { fatalError("422 without errors") }
        for e in errors where e["message"]?.stringValue?.isEmpty != false { fatalError("error without a message") }
    }
    guard status == 200 else { return 0 }
    if out.json.count > limits.maxResponseBytes { fatalError("past the byte budget: \(out.json.count)") }
    if JSONWriter.encode(value) != out.json { fatalError("not the canonical encoding") }
    guard case .plan(let plan) = Matrix.plan(body: bytes, catalog: catalog, limits: limits) else {
        fatalError("answered 200 but the plan is refused")
    }
    if plan.work > limits.maxWork || plan.combinationCount > Matrix.maxCombinations { fatalError("past a budget") }
    guard case .array(let results)? = value["results"], results.count == plan.combinationCount else {
        fatalError("results do not match the plan")
    }
    if Matrix.run(plan, catalog: catalog, maxResponseBytes: limits.maxResponseBytes).json != out.json {
        fatalError("plan + run differ from resolve")
    }
    return 0
}

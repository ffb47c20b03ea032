import LayoutEngine
import Store

@testable import Resolving

/// Resolves `body` as the service does and appends it to `store`'s request log as the record of time
/// 1000 + `index` ms, with the answer and the constant-set version it used (the log the impact report reads).
func recordResolution(_ body: [UInt8], index: Int, store: Store, context: ConstantSetContext) {
    let out = Resolver.resolve(body: body, catalog: store, constantSets: context)
    store.requestLog.append(
        RequestRecord(
            receivedAt: Timestamp(millisecondsSinceEpoch: 1000 + Int64(index)), durationMicros: 1,
            device: "iphone-16", status: 200, codes: [], requestBody: body, responseBody: out.json,
            engineVersion: "1", constantSet: RecordFacts(resolve: out, request: body).constantSet)
    ) { _ in }
}

import SwiftUI

// A sheet as tall as its measured content, that cannot grow or scroll: linted at accessibility text sizes, its
// content is cut off (docs/rules.md#dynamic-type-risk).
struct ReceiptView: View {
    @State private var showsReceipt = false
    @State private var receiptHeight: CGFloat = 1

    var body: some View {
        Button("Receipt") { showsReceipt = true }
            .sheet(isPresented: $showsReceipt) {
                ReceiptSummary()
                    .onGeometryChange(for: CGFloat.self) { proxy in
                        proxy.size.height
                    } action: { height in
                        receiptHeight = max(1, height)
                    }
                    .presentationDetents([.height(receiptHeight)])
            }
    }
}

struct ReceiptSummary: View {
    var body: some View {
        VStack(alignment: .leading, spacing: 8) {
            Text("Total")
                .font(.headline)
            Text("12,99 €")
        }
        .padding(24)
    }
}

import SwiftUI

struct CheckoutView: View {
    @State private var showsSummary = false

    var body: some View {
        Button("Ver resumen") {
            showsSummary = true
        }
        .sheet(isPresented: $showsSummary) {
            PaymentSummaryView()
                .fittingSheetDetents()
        }
    }
}

// The same summary, which the user may drag to the system's sizes.
struct ExpandableCheckoutView: View {
    @State private var showsSummary = false

    var body: some View {
        Button("Ver resumen") {
            showsSummary = true
        }
        .sheet(isPresented: $showsSummary) {
            PaymentSummaryView()
                .fittingSheetDetents(extraDetents: [.medium, .large])
        }
    }
}

struct PaymentSummaryView: View {
    var body: some View {
        VStack(alignment: .leading, spacing: 16) {
            Text("Resumen del pago")
                .font(.title2.bold())
            Text("Plan Pro")
            Text("Facturación mensual")
            Text("Total: 12,99 €")
                .font(.headline)
            Button("Confirmar") {
                // Confirmar operación
            }
            .buttonStyle(.borderedProminent)
        }
        .padding(24)
    }
}

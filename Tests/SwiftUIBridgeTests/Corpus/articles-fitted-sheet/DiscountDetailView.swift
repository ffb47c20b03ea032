import SwiftUI

// Content that sets its own fitted detents, and grows when the conditions are shown.
struct DiscountDetailView: View {
    @State private var showsConditions = false

    var body: some View {
        VStack(alignment: .leading, spacing: 16) {
            Text("Cupón aplicado")
                .font(.title3.bold())
            Text("Se ha aplicado un descuento del 15% a tu próxima factura.")
            Button(showsConditions ? "Ocultar condiciones" : "Ver condiciones") {
                withAnimation {
                    showsConditions.toggle()
                }
            }
            if showsConditions {
                Text("El descuento solo se aplica a renovaciones mensuales y no es acumulable.")
                    .font(.footnote)
                    .foregroundStyle(.secondary)
            }
        }
        .padding(24)
        .fittingSheetDetents(extraDetents: [.medium])
    }
}

// Large text: the content scrolls, and may grow to the large detent.
struct AccessibleSummarySheet: View {
    var body: some View {
        ScrollView {
            VStack(alignment: .leading, spacing: 16) {
                Text("Cambios importantes")
                    .font(.title2.bold())
                Text("Hemos actualizado las condiciones del servicio para simplificar la facturación.")
                Button("Entendido") {
                    // Cerrar sheet desde el entorno o desde el estado del padre
                }
                .buttonStyle(.borderedProminent)
            }
            .padding(24)
        }
        .fittingSheetDetents(extraDetents: [.large])
    }
}

struct BillingView: View {
    @State private var showsDiscount = false
    @State private var showsChanges = false

    var body: some View {
        VStack {
            Button("Ver cupón") { showsDiscount = true }
                .sheet(isPresented: $showsDiscount) {
                    DiscountDetailView()
                }
            Button("Ver cambios") { showsChanges = true }
                .sheet(isPresented: $showsChanges) {
                    AccessibleSummarySheet()
                }
        }
    }
}

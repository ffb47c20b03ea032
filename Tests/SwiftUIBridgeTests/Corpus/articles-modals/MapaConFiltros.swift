import SwiftUI

// Graduated modality: below the medium height the map behind stays usable.
struct MapaConFiltros: View {
    @State private var mostrando = false

    var body: some View {
        Mapa()
            .sheet(isPresented: $mostrando) {
                Filtros()
                    .presentationDetents([.height(220), .medium, .large])
                    .presentationDragIndicator(.visible)
                    .presentationBackgroundInteraction(.enabled(upThrough: .medium))
            }
    }
}

struct Filtros: View {
    @State private var soloAbiertos = true

    var body: some View {
        Form {
            Toggle("Solo abiertos", isOn: $soloAbiertos)
        }
    }
}

import SwiftUI

// The repertoire: a sheet by item, a sheet with partial heights, a cover, a popover. One at a time: each is a scene.
struct Repertorio: View {
    @State private var elemento: Tarea?
    @State private var mostrando = false
    @State private var onboarding = false
    @State private var mostrandoAyuda = false

    var body: some View {
        Lista(tareas: [])
            // hoja: interrupcion ligera, descartable con gesto, el fondo sigue visible
            .sheet(item: $elemento) { Editor(elemento: $0) }
            // altura parcial: menos interrupcion todavia, el contexto de fondo se mantiene
            .sheet(isPresented: $mostrando) {
                Filtros().presentationDetents([.medium, .large])
            }
            // cubierta: interrupcion total, sin gesto de descarte, salida solo por boton
            .fullScreenCover(isPresented: $onboarding) { Bienvenida() }
            // globo: contextual y anclado al control que lo abrio
            .popover(isPresented: $mostrandoAyuda) { Ayuda() }
    }
}

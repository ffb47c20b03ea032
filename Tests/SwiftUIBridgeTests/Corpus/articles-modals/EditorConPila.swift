import SwiftUI

// A modal with its own navigation stack, an explicit way out in its toolbar, and unsaved work protected from an
// accidental swipe.
struct ListaConEditor: View {
    @State private var enEdicion: Tarea?
    @State private var rutaEdicion: [RutaEdicion] = []
    @State private var hayCambios = false

    var body: some View {
        Lista(tareas: [])
            .sheet(item: $enEdicion) { tarea in
                NavigationStack(path: $rutaEdicion) {
                    EditorTarea(tarea: tarea)
                        .navigationDestination(for: RutaEdicion.self) { destino($0) }
                        .toolbar {
                            ToolbarItem(placement: .cancellationAction) { Button("Cancelar") { enEdicion = nil } }
                            ToolbarItem(placement: .confirmationAction) { Button("Guardar") { guardar() } }
                        }
                }
                .interactiveDismissDisabled(hayCambios)
            }
    }

    func destino(_ ruta: RutaEdicion) -> some View {
        Text(ruta.titulo)
    }

    func guardar() {}
}

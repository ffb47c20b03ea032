import SwiftUI

// Presenting by a flag while the data lives in an optional: two states nothing keeps together.
struct ListaPorBandera: View {
    @State private var seleccionada: Tarea?
    @State private var mostrandoEditor = false
    let tareas: [Tarea]

    var body: some View {
        List(tareas) { tarea in
            Button(tarea.titulo) {
                seleccionada = tarea
                mostrandoEditor = true
            }
        }
        .sheet(isPresented: $mostrandoEditor) {
            if let tarea = seleccionada {
                EditorTarea(tarea: tarea)
            }
        }
    }
}

struct DetallePorBandera: View {
    @State private var seleccionada: Tarea?
    @State private var mostrando = false

    var body: some View {
        Button("Ver") { mostrando = true }
            .fullScreenCover(isPresented: $mostrando) {
                EditorTarea(tarea: seleccionada!)
            }
    }
}

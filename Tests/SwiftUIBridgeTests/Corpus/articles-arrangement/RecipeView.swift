import SwiftUI

// Steps beside the ingredients: a split, 35 % for the ingredients.
@available(iOS 27.1, *)
struct RecipeView: View {
    var body: some View {
        NavigationStack {
            ArrangementView {
                List {
                    Text("1. Corta las verduras")
                    Text("2. Añade el caldo")
                    Text("3. Cocina durante 20 minutos")
                }
            } secondary: {
                List {
                    Text("2 zanahorias")
                    Text("1 puerro")
                    Text("500 ml de caldo")
                }
                .splitArrangementLayoutRatio(0.35)
            }
            .arrangementViewStyle(.split)
            .navigationTitle("Crema de verduras")
        }
    }
}

// Per-axis preferences, and only side by side.
@available(iOS 27.1, *)
struct RecipeDetailView: View {
    var body: some View {
        ArrangementView {
            StepsList()
        } secondary: {
            IngredientsList()
                .splitArrangementLayoutRatio(
                    minHorizontal: 0.3,
                    idealHorizontal: 0.35,
                    maxHorizontal: 0.45,
                    idealVertical: 0.4
                )
        }
        .arrangementViewStyle(.split.axes(.horizontal))
    }
}

#!/usr/bin/env bash
# hinge scenes, speed (docs/swiftui.md#speed): FILES generated SwiftUI files (default 1,000), each about 200 lines in
# the style of Tests/SwiftUIBridgeTests/Corpus — a screen that presents a sheet with detents and a toolbar from
# content declared in the file, a nested popover, a fitted sheet measured with onGeometryChange, a cover, a split
# ArrangementView, rows and helpers — every one of which can present. Prints, in one run:
#   - the parser's floor: every file parsed on one thread with the toolchain's parser and nothing else
#     (hinge-bench with HINGE_BENCH_SWIFT_PARSE=DIR);
#   - `hinge scenes DIR` (threads: the processors) and `hinge scenes --jobs 1 DIR`;
#   - each as the best and the median wall time of RUNS runs (default 3), with its CPU time (user + system), and the
#     ratio of `hinge scenes` to the floor (target: at most 0.75).
# On a machine shared with other work, wall times measure the CPU share the run got: compare CPU times too.
#
#   Benchmarks/scenes.sh [FILES] [RUNS]       # SCENES_NO_BUILD=1 skips `swift build -c release`
#   SCENES_GENERATE=DIR Benchmarks/scenes.sh [FILES]   # only writes the files, under DIR/src (Benchmarks/lint-swift.sh)
set -euo pipefail
cd "$(dirname "$0")/.."
files=${1:-1000}
runs=${2:-3}
if [ -z "${SCENES_NO_BUILD:-}" ] && [ -z "${SCENES_GENERATE:-}" ]; then
    swift build -c release --product hinge >/dev/null
    swift build -c release --product hinge-bench >/dev/null
fi
bin=$PWD/.build/release
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

python3 - "${SCENES_GENERATE:-$tmp}/src" "$files" <<'PY'
import os, sys
root, count = sys.argv[1], int(sys.argv[2])

def source(i):
    n = f"{i:04d}"
    detents = ["[.medium, .large]", "[.height(220), .medium, .large]", "[.fraction(0.4), .large]"][i % 3]
    placement = ["automatic", "center", "leading", "trailing"][i % 4]
    ratio = 0.25 + (i % 50) / 100
    return f'''import SwiftUI

// Screen {n}: a list of items, an editor in a sheet, help in a popover from the editor, a receipt that fits its
// content, an onboarding cover, and the list beside its details in a split.
struct Item{n}: Identifiable, Hashable {{
    let id: Int
    var title: String
    var detail: String
    var price: Double
}}

@available(iOS 27.1, *)
struct Screen{n}: View {{
    @State private var items: [Item{n}] = (0..<20).map {{
        Item{n}(id: $0, title: "Item \\($0)", detail: "Detail \\($0)", price: Double($0) * 1.5)
    }}
    @State private var editing: Item{n}?
    @State private var showsReceipt = false
    @State private var showsOnboarding = false
    @State private var receiptHeight: CGFloat = 1
    @State private var query = ""

    var body: some View {{
        NavigationStack {{
            ArrangementView {{
                itemList
            }} secondary: {{
                DetailPanel{n}(item: editing ?? items[0])
                    .splitArrangementLayoutRatio({ratio:.2f})
            }}
            .arrangementViewStyle(.split)
            .navigationTitle("Screen {n}")
            .searchable(text: $query)
            .toolbar {{
                ToolbarItem(placement: .primaryAction) {{
                    Button("Receipt", systemImage: "doc.text") {{ showsReceipt = true }}
                }}
                ToolbarItem(placement: .navigation) {{
                    Button("Welcome", systemImage: "hand.wave") {{ showsOnboarding = true }}
                }}
            }}
            .sheet(item: $editing) {{ item in
                Editor{n}(item: item)
            }}
            .sheet(isPresented: $showsReceipt) {{
                receipt
                    .onGeometryChange(for: CGFloat.self) {{ proxy in
                        proxy.size.height
                    }} action: {{ height in
                        receiptHeight = max(1, height)
                    }}
                    .presentationDetents([.height(receiptHeight), .medium])
                    .presentationDragIndicator(.visible)
            }}
            .fullScreenCover(isPresented: $showsOnboarding) {{
                Onboarding{n}()
            }}
        }}
    }}

    private var itemList: some View {{
        List(filtered) {{ item in
            Row{n}(item: item)
                .contentShape(Rectangle())
                .onTapGesture {{ editing = item }}
        }}
        .listStyle(.plain)
    }}

    private var filtered: [Item{n}] {{
        query.isEmpty ? items : items.filter {{ $0.title.localizedCaseInsensitiveContains(query) }}
    }}

    @ViewBuilder private var receipt: some View {{
        VStack(alignment: .leading, spacing: 12) {{
            Text("Receipt {n}")
                .font(.title2.bold())
            ForEach(items.prefix(3)) {{ item in
                HStack {{
                    Text(item.title)
                    Spacer()
                    Text(item.price, format: .currency(code: "EUR"))
                }}
            }}
            Divider()
            HStack {{
                Text("Total")
                    .font(.headline)
                Spacer()
                Text(items.prefix(3).reduce(0) {{ $0 + $1.price }}, format: .currency(code: "EUR"))
            }}
        }}
        .padding(24)
    }}
}}

struct Row{n}: View {{
    let item: Item{n}

    var body: some View {{
        HStack(spacing: 12) {{
            Image(systemName: "doc")
                .foregroundStyle(.secondary)
            VStack(alignment: .leading) {{
                Text(item.title)
                    .font(.body)
                Text(item.detail)
                    .font(.caption)
                    .foregroundStyle(.secondary)
            }}
            Spacer()
            Text(item.price, format: .number.precision(.fractionLength(2)))
                .monospacedDigit()
        }}
        .padding(.vertical, 4)
    }}
}}

struct Editor{n}: View {{
    @Environment(\\.dismiss) private var dismiss
    @State private var draft: Item{n}
    @State private var showsHelp = false

    init(item: Item{n}) {{
        _draft = State(initialValue: item)
    }}

    var body: some View {{
        NavigationStack {{
            Form {{
                Section("Title") {{
                    TextField("Title", text: $draft.title)
                }}
                Section("Detail") {{
                    TextField("Detail", text: $draft.detail, axis: .vertical)
                        .lineLimit(3...6)
                }}
                Section("Price") {{
                    TextField("Price", value: $draft.price, format: .number)
                        .keyboardType(.decimalPad)
                }}
            }}
            .navigationTitle(draft.title)
            .toolbar {{
                ToolbarItem(placement: .cancellationAction) {{
                    Button("Cancel", systemImage: "xmark") {{ dismiss() }}
                }}
                ToolbarItem(placement: .confirmationAction) {{
                    Button("Save", systemImage: "checkmark") {{ dismiss() }}
                }}
                ToolbarItem(placement: .primaryAction) {{
                    Button("Help", systemImage: "questionmark.circle") {{ showsHelp = true }}
                        .popover(isPresented: $showsHelp, arrowEdge: .top) {{
                            HelpText{n}()
                                .presentationCompactAdaptation(.popover)
                        }}
                }}
            }}
        }}
        .presentationDetents({detents})
        .presentationPlacement(.{placement})
        .presentationBackgroundInteraction(.enabled(upThrough: .medium))
        .interactiveDismissDisabled()
    }}
}}

struct HelpText{n}: View {{
    var body: some View {{
        VStack(alignment: .leading, spacing: 8) {{
            Text("Editing item {n}")
                .font(.headline)
            Text("Change the title, the detail and the price, then save. Cancel leaves the item as it was.")
                .font(.callout)
        }}
        .padding()
        .frame(maxWidth: 320)
    }}
}}

struct DetailPanel{n}: View {{
    let item: Item{n}

    var body: some View {{
        ScrollView {{
            VStack(alignment: .leading, spacing: 16) {{
                Text(item.title)
                    .font(.largeTitle.bold())
                Text(item.detail)
                Text(item.price, format: .currency(code: "EUR"))
                    .font(.title3)
            }}
            .padding()
        }}
    }}
}}

struct Onboarding{n}: View {{
    @Environment(\\.dismiss) private var dismiss

    var body: some View {{
        VStack(spacing: 24) {{
            Image(systemName: "sparkles")
                .font(.system(size: 64))
            Text("Welcome")
                .font(.largeTitle.bold())
            Text("Screen {n} keeps your items, with their prices, in one list.")
                .multilineTextAlignment(.center)
            Button("Continue") {{ dismiss() }}
                .buttonStyle(.borderedProminent)
        }}
        .padding(32)
    }}
}}
'''

for i in range(count):
    d = os.path.join(root, f"group-{i // 100:02d}")
    os.makedirs(d, exist_ok=True)
    with open(os.path.join(d, f"Screen{i:04d}.swift"), "w") as f:
        f.write(source(i))
PY
if [ -n "${SCENES_GENERATE:-}" ]; then exit 0; fi

lines=$(cat "$tmp"/src/*/*.swift | wc -l)
echo "$files files, $((lines / files)) lines each on average; machine: $(nproc) processors, load average $(cut -d' ' -f1-3 /proc/loadavg)"

# Each run times the three commands one after the other, so that they share the machine's conditions; each
# command's best and median wall time over the runs, and the CPU time (user + system) of its median run.
run() { /usr/bin/time -f "%e %U %S" -o "$tmp/time" "$@" >/dev/null && cat "$tmp/time"; }
: >"$tmp/floor"
: >"$tmp/all"
: >"$tmp/one"
for _ in $(seq "$runs"); do
    run env HINGE_BENCH_SWIFT_PARSE="$tmp/src" "$bin/hinge-bench" >>"$tmp/floor"
    run "$bin/hinge" scenes "$tmp/src" >>"$tmp/all"
    run "$bin/hinge" scenes --jobs 1 "$tmp/src" >>"$tmp/one"
done
summary() { sort -n "$1" | awk '{w[NR]=$1; c[NR]=$2+$3} END {m=int((NR+1)/2); printf "%.2f %.2f %.2f\n", w[1], w[m], c[m]}'; }
read -r floor_best floor_median floor_cpu < <(summary "$tmp/floor")
read -r all_best all_median all_cpu < <(summary "$tmp/all")
read -r one_best one_median one_cpu < <(summary "$tmp/one")
scenes=$("$bin/hinge" scenes "$tmp/src" | grep -c '"id": ".*#Screen' || true)

printf '%-44s %9s %9s %9s %8s\n' "($runs runs; ÷ floor: best wall times)" "best s" "median s" "cpu s" "÷ floor"
printf '%-44s %9s %9s %9s %8s\n' "parse only, one thread (the floor)" "$floor_best" "$floor_median" "$floor_cpu" "1.00"
for row in "hinge scenes ($(nproc) threads)|$all_best|$all_median|$all_cpu" "hinge scenes --jobs 1|$one_best|$one_median|$one_cpu"; do
    IFS='|' read -r name best median cpu <<<"$row"
    printf '%-44s %9s %9s %9s %8s\n' "$name" "$best" "$median" "$cpu" "$(awk -v a="$best" -v b="$floor_best" 'BEGIN {printf "%.2f", a / b}')"
done
echo "$scenes scenes of Screen views read"

#!/usr/bin/env python3
"""Drives every operation of a running hinge through a Python client generated from openapi.yaml.

scripts/openapi-client.sh generates the client (openapi-python-client, package `hinge_client`) and starts the
server; this script imports the package from --client-dir and calls each operation with the generated typed
models only (no hand-written request bodies). For each JSON answer it checks:

- the status is one the document lists for the operation (the client raises on any other);
- the answer parses into the operation's model, and that model serialised again (`to_dict()`) equals the JSON
  the server sent: a member the document does not declare, or declares with another shape, shows here;
- no model along the way kept a member in `additional_properties`, the bag for members the document does
  not name (maps the document declares as maps, such as `constants`, excepted).

At the end every operation module the generator wrote must have been called at least once. Prints one line
per check and the passed/failed counts; exits 1 when a check failed.
"""

import argparse
import importlib
import io
import json
import pkgutil
import re
import sys
import traceback

import attrs

passed = 0
failed = 0
called = set()


def check(name, fn):
    global passed, failed
    try:
        detail = fn()
        passed += 1
        print(f"ok    {name}" + (f" ({detail})" if detail else ""))
    except Exception as error:  # a failed check is reported and counted; the others still run
        failed += 1
        print(f"FAIL  {name}: {type(error).__name__}: {error}")
        traceback.print_exc(limit=3, file=sys.stdout)


def expect(condition, message):
    if not condition:
        raise AssertionError(message)


def undeclared_members(value, path="$"):
    """Paths of members a model kept in its untyped `additional_properties` bag, at any depth."""
    found = []
    if attrs.has(type(value)):
        for field in attrs.fields(type(value)):
            member = getattr(value, field.name)
            if field.name == "additional_properties":
                # A declared map (additionalProperties with a schema) has a typed bag; only `dict[str, Any]`
                # holds what the document does not name.
                if member and str(field.type).replace(" ", "") == "dict[str,Any]":
                    found.append(f"{path}: {sorted(member)}")
                for key, item in member.items():
                    found += undeclared_members(item, f"{path}.{key}")
            else:
                found += undeclared_members(member, f"{path}.{field.name}")
    elif isinstance(value, list):
        for index, item in enumerate(value):
            found += undeclared_members(item, f"{path}[{index}]")
    return found


def round_trip(response, model_type):
    """The parsed model of a JSON answer, after checking it re-serialises to the server's JSON exactly."""
    model = response.parsed
    expect(isinstance(model, model_type), f"parsed as {type(model).__name__}, not {model_type.__name__}")
    served = json.loads(response.content)
    again = model.to_dict()
    expect(again == served, f"to_dict() differs from the server's JSON: {first_difference(again, served)}")
    stray = undeclared_members(model)
    expect(not stray, f"members the document does not declare: {stray}")
    return model


def first_difference(a, b, path=""):
    if isinstance(a, dict) and isinstance(b, dict):
        for key in sorted(set(a) | set(b)):
            if key not in a:
                return f"{path}/{key} dropped"
            if key not in b:
                return f"{path}/{key} added"
            d = first_difference(a[key], b[key], f"{path}/{key}")
            if d:
                return d
        return None
    if isinstance(a, list) and isinstance(b, list):
        if len(a) != len(b):
            return f"{path}: {len(a)} items, server {len(b)}"
        for i, (x, y) in enumerate(zip(a, b, strict=True)):
            d = first_difference(x, y, f"{path}/{i}")
            if d:
                return d
        return None
    return None if a == b else f"{path}: {a!r} != server {b!r}"


def status(response, code):
    """Checks the status; a JSON answer (a problem included) must also survive the round trip of its model."""
    expect(response.status_code == code,
           f"status {int(response.status_code)}, expected {code}: {response.content[:300]!r}")
    if response.headers.get("Content-Type", "").split(";")[0].endswith("json"):
        round_trip(response, type(response.parsed))


class Operations:
    """The generated operation modules, recording which were called."""

    def __init__(self, package):
        self.modules = {}
        api = importlib.import_module(f"{package}.api")
        for tag in pkgutil.iter_modules(api.__path__):
            tag_module = importlib.import_module(f"{package}.api.{tag.name}")
            for op in pkgutil.iter_modules(tag_module.__path__):
                self.modules[op.name] = importlib.import_module(f"{package}.api.{tag.name}.{op.name}")

    def __getattr__(self, name):
        module = self.modules[name]
        called.add(name)
        return module.sync_detailed


def is_svg(text):
    """An SVG document, as text (the generated client reads `image/svg+xml` as text: openapi-client-config.yaml)."""
    return isinstance(text, str) and re.match(r"(<\?xml [^>]*\?>\s*)?<svg ", text) is not None and \
        text.rstrip().endswith("</svg>")


def svg_width(svg):
    match = re.search(r'<svg [^>]*?\bwidth="([0-9]+)"', svg)
    return int(match.group(1)) if match else None


def sheet_scene(m, device="iphone-16"):
    """A typed scene: a sheet and a popover presented from it, with the fields every presentation has (`id`,
    `presentedFrom`, `intent`) beside their kind's own."""
    done = m.SheetFieldsToolbarType1Item(
        title="Done", system_image="checkmark",
        placement=m.SheetFieldsToolbarType1ItemPlacementType1.CONFIRMATIONACTION)
    return m.Scene(
        device=device,
        presentations=[
            m.SheetPresentation(
                id="settings", kind=m.SheetFieldsKind.SHEET, detents=[m.DetentType0.MEDIUM, m.DetentType0.LARGE],
                intent=m.Intent(has_decision=False), drag_indicator=m.SheetFieldsDragIndicatorType1.VISIBLE,
                toolbar=[done]),
            m.PopoverPresentation(
                id="info", kind=m.PopoverFieldsKind.POPOVER, presented_from="settings",
                anchor=m.Anchor(x=40, y=500, width=44, height=44), content_size=m.Size(width=200, height=120)),
        ],
    )


def run_checks(ops, m, reader, writer, wrong_key, args):
    state = {}

    def resolve_typed_presentations():
        r = ops.resolve(client=reader, body=sheet_scene(m))
        status(r, 200)
        resolution = round_trip(r, m.Resolution)
        ids = [(p.id, str(p.kind), str(p.status)) for p in resolution.placements]
        expect(ids == [("settings", "sheet", "presented"), ("info", "popover", "presented")], f"placements {ids}")
        expect(r.headers.get("Hinge-Record-Id"), "no Hinge-Record-Id")
        state["record"] = r.headers["Hinge-Record-Id"]
        # The two other kinds, with the common fields: on an iPad, a cover presented from an adaptive panel.
        scene = m.Scene(device="ipad-pro-13", presentations=[
            m.AdaptivePanelPresentation(id="panel", kind=m.AdaptivePanelFieldsKind.ADAPTIVEPANEL,
                                        alignment=m.AdaptivePanelFieldsAlignmentType1.TRAILING),
            m.FullScreenCoverPresentation(id="cover", kind=m.FullScreenCoverFieldsKind.FULLSCREENCOVER,
                                          presented_from="panel", intent=m.Intent(abandonable_without_cost=True)),
        ])
        r = ops.resolve(client=reader, body=scene, format_=m.ResolveFormat.JSON)
        status(r, 200)
        kinds = [str(p.kind) for p in round_trip(r, m.Resolution).placements]
        expect(kinds == ["adaptivePanel", "fullScreenCover"], f"kinds {kinds}")
        # The request model reads back what it wrote (the discriminated presentations included).
        again = m.Scene.from_dict(scene.to_dict())
        expect(again.to_dict() == scene.to_dict(), "Scene.from_dict(to_dict()) differs")
        expect(isinstance(again.presentations[1], m.FullScreenCoverPresentation), "the cover came back as another kind")
        return f"record {state['record']}"

    def resolve_422_is_a_problem():
        scene = m.Scene(device="nope", presentations=[m.SheetPresentation(id="s", kind=m.SheetFieldsKind.SHEET)])
        r = ops.resolve(client=reader, body=scene)
        status(r, 422)
        problem = round_trip(r, m.Problem)
        paths = [e.path for e in problem.errors]
        expect(problem.status == 422 and paths == ["/device"], f"problem {problem.status} {paths}")
        return problem.errors[0].message

    def resolve_svg():
        r = ops.resolve_svg(client=reader, body=sheet_scene(m))
        status(r, 200)
        expect(r.headers["Content-Type"].startswith("image/svg+xml"), r.headers["Content-Type"])
        expect(is_svg(r.parsed), f"not an SVG document: {r.parsed[:80]!r}")
        expect(svg_width(r.parsed) is None, "a picture without ?width has a pixel width")
        sized = ops.resolve_svg(client=reader, body=sheet_scene(m), width=390)
        status(sized, 200)
        expect(svg_width(sized.parsed) == 390, f"width {svg_width(sized.parsed)}")
        record = ops.get_request(r.headers["Hinge-Record-Id"], client=reader)
        status(record, 200)
        expect(str(round_trip(record, m.RequestRecord).path) == "/v1/resolve", "not recorded under /v1/resolve")
        bad = ops.resolve_svg(client=reader, body=sheet_scene(m), width=15)
        status(bad, 400)
        expect("width" in round_trip(bad, m.Problem).detail, "the 400 does not name width")
        return f"{len(r.parsed)} bytes"

    def swiftui():
        written = ops.swift_ui_from_scene(client=reader, body=sheet_scene(m))
        status(written, 200)
        expect(written.headers["Content-Type"] == "text/x-swift; charset=utf-8", written.headers["Content-Type"])
        code = written.content
        File = importlib.import_module(f"{args.package}.types").File
        expect(code.startswith(b"import SwiftUI"), f"not Swift: {code[:60]!r}")
        read = ops.scenes_from_swift(
            client=reader, body=File(payload=io.BytesIO(code), file_name="Scene.swift", mime_type="text/x-swift"),
            path="Scene.swift")
        status(read, 200)
        scenes = round_trip(read, m.SwiftScenes)
        expect(scenes.files == 1 and len(scenes.scenes) == 1, f"{scenes.files} files, {len(scenes.scenes)} scenes")
        ids = [p["id"] for p in scenes.scenes[0].scene.to_dict()["presentations"]]
        sent = [p.id for p in sheet_scene(m).presentations]
        expect(ids == sent, f"read back {ids}, written from {sent}")
        lines = code.count(b"\n")
        return f"{lines} lines, read back as {ids}"

    def matrix():
        request = m.MatrixRequest(
            scene=sheet_scene(m, device=None), devices=["iphone-16", "iphone-duo"],
            postures=[m.MatrixRequestPosturesType0Item.HALFOPENED],
            orientations=[m.MatrixRequestOrientationsType0Item.PORTRAIT],
            layout_directions=[m.MatrixRequestLayoutDirectionsType0Item.LTR,
                               m.MatrixRequestLayoutDirectionsType0Item.RTL])
        again = m.MatrixRequest.from_dict(request.to_dict())
        expect(again.to_dict() == request.to_dict() and isinstance(again.scene, m.Scene), "MatrixRequest round trip")
        r = ops.resolve_matrix(client=reader, body=request)
        status(r, 200)
        results = round_trip(r, m.MatrixResponse).results
        combos = [(x.device, str(x.posture), str(x.layout_direction)) for x in results]
        expect(combos == [("iphone-16", "flat", "ltr"), ("iphone-16", "flat", "rtl"),
                          ("iphone-duo", "halfOpened", "ltr"), ("iphone-duo", "halfOpened", "rtl")], f"{combos}")
        expect(all(isinstance(x.resolution, m.Resolution) and x.errors is None for x in results), "a result failed")
        every = m.MatrixRequest(scene=m.Scene(window=m.SceneWindowType1(width=500, height=400)),
                                devices=m.MatrixRequestDevicesType1.ALL,
                                orientations=[m.MatrixRequestOrientationsType0Item.LANDSCAPE],
                                layout_directions=[m.MatrixRequestLayoutDirectionsType0Item.LTR])
        expect(m.MatrixRequest.from_dict(every.to_dict()).devices == m.MatrixRequestDevicesType1.ALL, "devices all")
        r = ops.resolve_matrix(client=reader, body=every)
        status(r, 200)
        results = round_trip(r, m.MatrixResponse).results
        expect(any(x.errors for x in results) and any(x.resolution for x in results), "no mix of results and errors")
        return f"{len(combos)} + {len(results)} combinations"

    def constants():
        r = ops.constants(client=reader)
        status(r, 200)
        table = round_trip(r, m.Constants).constants
        expect("sheet.topGap" in table.additional_properties, "no sheet.topGap")
        expect(isinstance(table["sheet.topGap"], m.ConstantsConstantsAdditionalProperty), "constant not typed")
        status(ops.constants(client=reader, if_none_match=r.headers["ETag"]), 304)
        return f"{len(table.additional_properties)} constants"

    def devices_crud():
        listed = ops.list_devices(client=reader, kind=m.ListDevicesKind.FOLDABLE)
        status(listed, 200)
        expect([d.id for d in round_trip(listed, m.ListDevicesResponse200).items] == ["iphone-duo"], "foldables")
        one = ops.get_device("iphone-duo", client=reader)
        status(one, 200)
        round_trip(one, m.DeviceProfile)
        status(ops.get_device("iphone-duo", client=reader, if_none_match=one.headers["ETag"]), 304)
        profile = m.DeviceProfileInput(name="Driver tablet", kind=m.DeviceProfileInputKind.TABLET, displays=[
            m.Display(id="main", width=800, height=1280, safe_area=m.DisplayInsets(top=24, bottom=20))])
        status(ops.put_device("driver-tablet", client=wrong_key, body=profile), 401)
        created = ops.put_device("driver-tablet", client=writer, body=profile, if_none_match="*")
        status(created, 201)
        expect(round_trip(created, m.DeviceProfile).built_in is False, "created a built-in")
        location = created.headers.get("Location")
        expect(location == "/v1/devices/driver-tablet", f"Location {location}")
        etag = created.headers["ETag"]
        status(ops.put_device("driver-tablet", client=writer, body=profile, if_none_match="*"), 412)
        profile.name = "Driver tablet, renamed"
        replaced = ops.put_device("driver-tablet", client=writer, body=profile, if_match=etag)
        status(replaced, 200)
        expect(round_trip(replaced, m.DeviceProfile).name == profile.name, "not replaced")
        stale = ops.put_device("driver-tablet", client=writer, body=profile, if_match=etag)
        status(stale, 412)
        round_trip(stale, m.Problem)
        status(ops.delete_device("driver-tablet", client=writer, if_match=etag), 412)
        status(ops.delete_device("driver-tablet", client=writer, if_match=replaced.headers["ETag"]), 204)
        gone = ops.get_device("driver-tablet", client=reader)
        status(gone, 404)
        round_trip(gone, m.Problem)
        return "201 Location, 200, 412 ×3, 204, 404"

    def request_log():
        page = ops.list_requests(client=reader, limit=2)
        status(page, 200)
        first = round_trip(page, m.ListRequestsResponse200)
        expect(len(first.items) == 2 and isinstance(first.next_, str),
               f"page of {len(first.items)}, next {first.next_!r}")
        rest = ops.list_requests(client=reader, limit=500, cursor=first.next_)
        status(rest, 200)
        ids = [x.id for x in first.items] + [x.id for x in round_trip(rest, m.ListRequestsResponse200).items]
        expect(state["record"] in ids, f"record {state['record']} not listed")
        filtered = ops.list_requests(client=reader, device="nope", status=422)
        status(filtered, 200)
        expect([x.status for x in round_trip(filtered, m.ListRequestsResponse200).items] == [422], "the 422 filter")
        record = ops.get_request(state["record"], client=reader)
        status(record, 200)
        expect(round_trip(record, m.RequestRecord).status == 200, "record status")
        svg = ops.get_request_svg(state["record"], client=reader, width=512)
        status(svg, 200)
        expect(is_svg(svg.parsed) and svg_width(svg.parsed) == 512, f"the record's picture: {svg.parsed[:80]!r}")
        replay = ops.replay_request(state["record"], client=reader)
        status(replay, 200)
        outcome = round_trip(replay, m.Replay)
        expect(outcome.unchanged is True and outcome.differences == [], f"replay changed: {outcome.differences}")
        status(ops.get_request("999999", client=reader), 404)
        status(ops.clear_requests(client=wrong_key), 401)
        status(ops.clear_requests(client=writer), 204)
        empty = ops.list_requests(client=reader)
        status(empty, 200)
        expect(round_trip(empty, m.ListRequestsResponse200).items == [], "the log was not cleared")
        return f"{len(ids)} records, replay unchanged, cleared"

    def operations():
        for op, model, value in [("healthz", m.HealthzResponse200, "ok"), ("readyz", m.ReadyzResponse200, "ready")]:
            r = getattr(ops, op)(client=reader)
            status(r, 200)
            expect(str(round_trip(r, model).status) == value, f"{op} status")
        metrics = ops.metrics(client=reader)
        status(metrics, 200)
        expect('route="POST /v1/resolve/svg"' in metrics.parsed, "no metrics for POST /v1/resolve/svg")
        document = ops.openapi(client=reader)
        status(document, 200)
        # Declared without a schema (the YAML text): the generated function leaves the bytes in `content`.
        expect(document.parsed is None, f"GET /openapi.yaml parsed as {type(document.parsed).__name__}")
        expect(document.content == open(args.openapi, "rb").read(), "GET /openapi.yaml is not openapi.yaml")
        status(ops.openapi(client=reader, if_none_match=document.headers["ETag"]), 304)
        return "healthz, readyz, metrics, openapi.yaml"

    def studio():
        page = ops.studio(client=reader)
        status(page, 200)
        asset = re.search(r"/studio/(app\.[0-9a-f]+\.js)", page.parsed)
        expect(asset, "the page names no /studio/app.<hash>.js")
        js = ops.studio_asset(asset.group(1), client=reader)
        status(js, 200)
        status(ops.studio_asset(asset.group(1), client=reader, if_none_match=js.headers["ETag"]), 304)
        status(ops.studio_asset("app.js", client=reader), 404)
        status(ops.studio(client=reader, if_none_match=page.headers["ETag"]), 304)
        return asset.group(1)

    def constant_sets():
        body = m.ConstantSetVersionInput.from_dict({
            "basedOn": "default", "constants": {"sheet.topGap": 12}, "note": "driver",
            "sources": {"sheet.topGap": "measured"}})
        status(ops.create_constant_set_version("driver", client=wrong_key, body=body), 401)
        created = ops.create_constant_set_version("driver", client=writer, body=body)
        status(created, 201)
        version = round_trip(created, m.ConstantSetVersion)
        expect(version.reference == "driver@1", f"reference {version.reference}")
        expect(created.headers.get("Location") == "/v1/constant-sets/driver/versions/1", "Location")
        listed = ops.list_constant_sets(client=reader)
        status(listed, 200)
        expect([s.name for s in round_trip(listed, m.ConstantSetList).constant_sets] == ["driver"], "listed")
        one = ops.get_constant_set("driver", client=reader)
        status(one, 200)
        expect(len(round_trip(one, m.ConstantSet).versions) == 1, "versions")
        got = ops.get_constant_set_version("driver", "1", client=reader)
        status(got, 200)
        round_trip(got, m.ConstantSetVersion)
        status(ops.get_constant_set_version("driver", "1", client=reader, if_none_match=got.headers["ETag"]), 304)
        status(ops.get_constant_set_version("driver", "9", client=reader), 404)
        # An impact report reads the whole log: under --api-key it needs the key, as a write does.
        status(ops.constant_set_impact("driver", "1", client=reader, body=m.ImpactRequest(limit=100)), 401)
        impact = ops.constant_set_impact("driver", "1", client=writer, body=m.ImpactRequest(limit=100))
        status(impact, 200)
        expect(round_trip(impact, m.ImpactReport).constant_set == "driver@1", "impact")
        status(ops.retire_constant_set("driver", client=writer), 204)
        status(ops.retire_constant_set("driver", client=writer), 404)
        return "201 Location, list, get, 304, 404, impact 401 then 200 with the key, 204, 404"

    def options_everywhere():
        count = 0
        for name in sorted(ops.modules):
            if not name.startswith("options"):
                continue
            fn = getattr(ops, name)
            params = [p for p in fn.__code__.co_varnames[:fn.__code__.co_argcount]]
            r = fn(*(["1"] * len(params)), client=reader)
            status(r, 204)
            expect("OPTIONS" in r.headers.get("Allow", ""), f"{name}: Allow {r.headers.get('Allow')}")
            count += 1
        return f"{count} paths"

    check("resolve: typed presentations of every kind, with id, presentedFrom and intent", resolve_typed_presentations)
    check("resolve: a 422 parsed as the problem model", resolve_422_is_a_problem)
    check("resolveSVG: the picture as text, ?width, recorded under /v1/resolve, a 400", resolve_svg)
    check("resolveMatrix: devices as a list and as all, scene typed", matrix)
    check("swiftUIFromScene, scenesFromSwift: a scene written as SwiftUI reads back as its presentations", swiftui)
    check("constants: typed map, ETag, 304", constants)
    check("devices: list, get, 304, put 201 with Location, If-Match, If-None-Match, delete, 404", devices_crud)
    check("request log: pages, filters, record, picture, replay, clear", request_log)
    check("operations: healthz, readyz, metrics, openapi.yaml", operations)
    check("studio: page, asset, 304, 404", studio)
    check("constant sets: create 201 with Location, list, get, version, 304, impact, retire", constant_sets)
    check("OPTIONS on every path", options_everywhere)


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--client-dir", required=True, help="the directory holding the generated package")
    parser.add_argument("--package", default="hinge_client")
    parser.add_argument("--base-url", required=True)
    parser.add_argument("--api-key", required=True, help="the key the server was started with (--api-key)")
    parser.add_argument("--openapi", required=True, help="openapi.yaml, compared with GET /openapi.yaml")
    args = parser.parse_args()
    sys.path.insert(0, args.client_dir)
    client_module = importlib.import_module(args.package)
    models = importlib.import_module(f"{args.package}.models")
    ops = Operations(args.package)

    def client(token=None):
        if token is None:
            return client_module.Client(base_url=args.base_url, raise_on_unexpected_status=True)
        return client_module.AuthenticatedClient(base_url=args.base_url, token=token, raise_on_unexpected_status=True)

    run_checks(ops, models, client(), client(args.api_key), client("not-the-key"), args)
    missing = sorted(set(ops.modules) - called)
    check("every generated operation was called",
          lambda: expect(not missing, f"never called: {missing}") or f"{len(ops.modules)} operations")
    print(f"\nopenapi client: {passed} passed, {failed} failed")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())

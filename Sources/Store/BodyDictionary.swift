/// The LZ4 dictionary of frames tagged `lz4Dictionary1` (docs/store.md#body-codec): bodies of Hinge's own API
/// (six requests of the test scenes and the service's answers to them, as a schema-v2 server recorded
/// them), so that a body's JSON keys and common values compress against it. Frames refer to these exact
/// bytes: never edit them (a new dictionary is a new tag). 8,179 bytes, lines joined by U+000A.
let lz4Dictionary1Bytes: [UInt8] = Array(
    [
        // line 1
        #"{"device": "test-phone", "presentations": [   {"id": "edit", "kind": "sheet", "detents": ["mediu"#,
        #"m", "large"],    "backgroundInteraction": {"upThrough": "medium"}},   {"id": "help", "kind": "po"#,
        #"pover", "presentedFrom": "edit", "anchor": {"x": 300, "y": 500, "width": 44, "height": 44}} ]}"# + "\n",
        // line 2
        #"{"detail":"The scene is valid JSON but breaks 1 rule: see errors, each with the JSON pointer of "#,
        #"the offending value.","errors":[{"message":"unknown device \"test-phone\" (`GET /v1/devices` or "#,
        #"`hinge devices` lists the known ids)","path":"/device"}],"status":422,"title":"Unprocessable Con"#,
        #"tent","type":"about:blank"}"# + "\n",
        // line 3
        #"{"device":"iphone-16","presentations":[{"id":"a","kind":"sheet","detents":["bogus"]}]}"# + "\n",
        // line 4
        #"{"detail":"The scene is valid JSON but breaks 1 rule: see errors, each with the JSON pointer of "#,
        #"the offending value.","errors":[{"message":"expected \"medium\", \"large\", \"fitted\", {\"heigh"#,
        #"t\": points} or {\"fraction\": 0 < f ≤ 1}","path":"/presentations/0/detents/0"}],"status":422,"t"#,
        #"itle":"Unprocessable Content","type":"about:blank"}"# + "\n",
        // line 5
        #"{"device": "iphone-16", "layoutDirection": "rtl", "presentations": [{"id": "c", "kind": "fullScr"#,
        #"eenCover"}, {"id": "s", "kind": "sheet"}]}"# + "\n",
        // line 6
        #"{"arrangement":null,"diagnostics":[{"code":"concurrent-presentation","message":"an earlier modal"#,
        #" is still up: SwiftUI ignores a second presentation from the same context; give it presentedFrom"#,
        #" (the modal on top) or present it after dismissing the first","path":"/presentations/1","present"#,
        #"ation":"s","severity":"warning"}],"engineVersion":"1.0.0","environment":{"device":"iphone-16","d"#,
        #"isplay":"main","dynamicTypeSize":"large","fold":null,"layoutDirection":"rtl","orientation":"port"#,
        #"rait","posture":"flat","regions":[{"frame":{"height":852,"width":393,"x":0,"y":0},"side":null,"s"#,
        #"izeClass":{"horizontal":"compact","vertical":"regular"}}],"safeArea":{"bottom":34,"leading":0,"t"#,
        #"op":59,"trailing":0},"sizeClass":{"horizontal":"compact","vertical":"regular"},"window":{"height"#,
        #"":852,"width":393,"x":0,"y":0},"windowClass":{"height":"medium","width":"compact"}},"placements""#,
        #":[{"adaptedFrom":null,"arrowEdge":null,"backgroundInteractive":false,"contentAxis":null,"cornerR"#,
        #"adii":{"bottomLeading":0,"bottomTrailing":0,"topLeading":0,"topTrailing":0},"detents":null,"dims"#,
        #"Background":false,"dragIndicatorVisible":null,"frame":{"height":852,"width":393,"x":0,"y":0},"id"#,
        #"":"c","kind":"fullScreenCover","placement":null,"region":null,"selectedDetent":null,"status":"pr"#,
        #"esented","style":"fullWindow","swipeToDismiss":false,"tapOutsideToDismiss":false,"toolbarOrienta"#,
        #"tion":null,"transitionEdge":"bottom"},{"adaptedFrom":null,"arrowEdge":null,"backgroundInteractiv"#,
        #"e":null,"contentAxis":null,"cornerRadii":null,"detents":null,"dimsBackground":null,"dragIndicato"#,
        #"rVisible":null,"frame":null,"id":"s","kind":"sheet","placement":null,"region":null,"selectedDete"#,
        #"nt":null,"status":"ignored","style":null,"swipeToDismiss":null,"tapOutsideToDismiss":null,"toolb"#,
        #"arOrientation":null,"transitionEdge":null}]}"# + "\n",
        // line 7
        #"{"device": "ipad-pro-13", "orientation": "landscape", "presentations": [{"id": "p", "kind": "pop"#,
        #"over", "anchor": {"x": 10, "y": 10, "width": 20, "height": 20}}]}"# + "\n",
        // line 8
        #"{"arrangement":null,"diagnostics":[],"engineVersion":"1.0.0","environment":{"device":"ipad-pro-1"#,
        #"3","display":"main","dynamicTypeSize":"large","fold":null,"layoutDirection":"ltr","orientation":"#,
        #""landscape","posture":"flat","regions":[{"frame":{"height":1032,"width":1376,"x":0,"y":0},"side""#,
        #":null,"sizeClass":{"horizontal":"regular","vertical":"regular"}}],"safeArea":{"bottom":20,"leadi"#,
        #"ng":0,"top":24,"trailing":0},"sizeClass":{"horizontal":"regular","vertical":"regular"},"window":"#,
        #"{"height":1032,"width":1376,"x":0,"y":0},"windowClass":{"height":"expanded","width":"large"}},"p"#,
        #"lacements":[{"adaptedFrom":null,"arrowEdge":"top","backgroundInteractive":false,"contentAxis":nu"#,
        #"ll,"cornerRadii":null,"detents":null,"dimsBackground":false,"dragIndicatorVisible":null,"frame":"#,
        #"{"height":320,"width":320,"x":10,"y":30},"id":"p","kind":"popover","placement":null,"region":nul"#,
        #"l,"selectedDetent":null,"status":"presented","style":"popover","swipeToDismiss":false,"tapOutsid"#,
        #"eToDismiss":true,"toolbarOrientation":null,"transitionEdge":null}]}"# + "\n",
        // line 9
        #"{"# + "\n",
        // line 10
        #"  "device": "iphone-16","# + "\n",
        // line 11
        #"  "presentations": [{"id": "settings", "kind": "sheet", "detents": ["medium", "large"]}]"# + "\n",
        // line 12
        #"}"# + "\n",
        // line 13
        #"{"arrangement":null,"diagnostics":[],"engineVersion":"1.0.0","environment":{"device":"iphone-16""#,
        #","display":"main","dynamicTypeSize":"large","fold":null,"layoutDirection":"ltr","orientation":"p"#,
        #"ortrait","posture":"flat","regions":[{"frame":{"height":852,"width":393,"x":0,"y":0},"side":null"#,
        #","sizeClass":{"horizontal":"compact","vertical":"regular"}}],"safeArea":{"bottom":34,"leading":0"#,
        #","top":59,"trailing":0},"sizeClass":{"horizontal":"compact","vertical":"regular"},"window":{"hei"#,
        #"ght":852,"width":393,"x":0,"y":0},"windowClass":{"height":"medium","width":"compact"}},"placemen"#,
        #"ts":[{"adaptedFrom":null,"arrowEdge":null,"backgroundInteractive":false,"contentAxis":null,"corn"#,
        #"erRadii":{"bottomLeading":0,"bottomTrailing":0,"topLeading":10,"topTrailing":10},"detents":[{"de"#,
        #"tent":"medium","height":391.5},{"detent":"large","height":783}],"dimsBackground":true,"dragIndic"#,
        #"atorVisible":true,"frame":{"height":391.5,"width":393,"x":0,"y":460.5},"id":"settings","kind":"s"#,
        #"heet","placement":{"requested":"automatic","resolved":"fullWidth"},"region":null,"selectedDetent"#,
        #"":"medium","status":"presented","style":"bottomSheet","swipeToDismiss":true,"tapOutsideToDismiss"#,
        #"":true,"toolbarOrientation":"horizontal","transitionEdge":"bottom"}]}"# + "\n",
        // line 14
        #"{"window": {"width": 1000, "height": 700}, "layoutDirection": "rtl", "safeArea": {"top": 20}, "c"#,
        #"olour": "blue", "constants": {"arrangement.defaultRatio": 0.3}, "presentations": [   {"id": "car"#,
        #"d", "kind": "sheet", "placement": "leading", "sizing": "fitted", "contentSize": {"width": 400, ""#,
        #"height": 300}},   {"id": "pop", "kind": "popover", "presentedFrom": "card", "anchor": {"x": 100,"#,
        #" "y": 600, "width": 50, "height": 50}} ], "arrangement": {"style": "split"}}"# + "\n",
        // line 15
        #"{"arrangement":{"axis":"horizontal","primary":{"frame":{"height":700,"width":700,"x":300,"y":0},"#,
        #""region":null,"visible":true,"zIndex":0},"secondary":{"frame":{"height":700,"width":300,"x":0,"y"#,
        #"":0},"region":null,"visible":true,"zIndex":0},"separated":false,"style":"split"},"diagnostics":["#,
        #"{"code":"unknown-field","message":"unknown field \"colour\" is ignored: check its spelling and w"#,
        #"here it is nested","path":"/colour","presentation":null,"severity":"warning"},{"code":"chained-m"#,
        #"odal","message":"a modal presented from the modal \"card\": chained modals stack interruptions; "#,
        #"consider navigating inside \"card\" instead","path":"/presentations/1/presentedFrom","presentati"#,
        #"on":"pop","severity":"warning"}],"engineVersion":"1.0.0","environment":{"device":null,"display":"#,
        #"null,"dynamicTypeSize":"large","fold":null,"layoutDirection":"rtl","orientation":"portrait","pos"#,
        #"ture":"flat","regions":[{"frame":{"height":700,"width":1000,"x":0,"y":0},"side":null,"sizeClass""#,
        #":{"horizontal":"regular","vertical":"regular"}}],"safeArea":{"bottom":0,"leading":0,"top":20,"tr"#,
        #"ailing":0},"sizeClass":{"horizontal":"regular","vertical":"regular"},"window":{"height":700,"wid"#,
        #"th":1000,"x":0,"y":0},"windowClass":{"height":"medium","width":"expanded"}},"placements":[{"adap"#,
        #"tedFrom":null,"arrowEdge":null,"backgroundInteractive":false,"contentAxis":null,"cornerRadii":{""#,
        #"bottomLeading":10,"bottomTrailing":10,"topLeading":10,"topTrailing":10},"detents":null,"dimsBack"#,
        #"ground":true,"dragIndicatorVisible":false,"frame":{"height":300,"width":400,"x":580,"y":200},"id"#,
        #"":"card","kind":"sheet","placement":{"requested":"leading","resolved":"leading"},"region":null,""#,
        #"selectedDetent":null,"status":"presented","style":"card","swipeToDismiss":true,"tapOutsideToDism"#,
        #"iss":true,"toolbarOrientation":"horizontal","transitionEdge":"bottom"},{"adaptedFrom":null,"arro"#,
        #"wEdge":"bottom","backgroundInteractive":false,"contentAxis":null,"cornerRadii":null,"detents":nu"#,
        #"ll,"dimsBackground":false,"dragIndicatorVisible":null,"frame":{"height":320,"width":320,"x":10,""#,
        #"y":280},"id":"pop","kind":"popover","placement":null,"region":null,"selectedDetent":null,"status"#,
        #"":"presented","style":"popover","swipeToDismiss":false,"tapOutsideToDismiss":true,"toolbarOrient"#,
        #"ation":null,"transitionEdge":null}]}"#,
    ].joined().utf8)

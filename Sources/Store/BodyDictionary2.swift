/// The LZ4 dictionary of frames tagged `lz4Dictionary2` (docs/store.md#body-codec), the one new bodies are
/// compressed against: dictionary 1's bytes (`lz4Dictionary1Bytes`), then the engine's ten golden scenes
/// (`Tests/LayoutEngineTests/Scenes`) as a client sends them, each on the built-in device of its test device's
/// kind (`iphone-16`, `ipad-pro-11`, `iphone-duo`), with the service's answer to each, every one after a line
/// break. Written by
/// `python3 scripts/body-dictionary.py .build/release/hinge Sources/Store/BodyDictionary2.swift lz4Dictionary2Bytes`.
/// Frames refer to these exact bytes: never edit or regenerate them (a new dictionary is a new tag).
let lz4Dictionary2Bytes: [UInt8] =
    lz4Dictionary1Bytes
    + Array(
        [
            // line 1
            #""# + "\n",
            // line 2
            #"{"device": "iphone-16","# + "\n",
            // line 3
            #" "presentations": ["# + "\n",
            // line 4
            #"   {"id": "edit", "kind": "sheet", "detents": ["medium", "large"],"# + "\n",
            // line 5
            #"    "backgroundInteraction": {"upThrough": "medium"}},"# + "\n",
            // line 6
            #"   {"id": "help", "kind": "popover", "presentedFrom": "edit", "anchor": {"x": 300, "y": 500, "wi"#,
            #"dth": 44, "height": 44}}"# + "\n",
            // line 7
            #" ]}"# + "\n",
            // line 8
            #"{"arrangement":null,"diagnostics":[{"code":"chained-modal","message":"a modal presented from the"#,
            #" modal \"edit\": chained modals stack interruptions; consider navigating inside \"edit\" instead"#,
            #"","path":"/presentations/1/presentedFrom","presentation":"help","severity":"warning"},{"code":"p"#,
            #"opover-adapted","message":"the popover is shown as a sheet (medium and large detents) because th"#,
            #"e window is horizontally compact; set compactAdaptation to \"popover\" to keep a popover","path""#,
            #":"/presentations/1","presentation":"help","severity":"info"}],"engineVersion":"1.0.0","environme"#,
            #"nt":{"device":"iphone-16","display":"main","dynamicTypeSize":"large","fold":null,"layoutDirectio"#,
            #"n":"ltr","orientation":"portrait","posture":"flat","regions":[{"frame":{"height":852,"width":393"#,
            #","x":0,"y":0},"side":null,"sizeClass":{"horizontal":"compact","vertical":"regular"}}],"safeArea""#,
            #":{"bottom":34,"leading":0,"top":59,"trailing":0},"sizeClass":{"horizontal":"compact","vertical":"#,
            #""regular"},"window":{"height":852,"width":393,"x":0,"y":0},"windowClass":{"height":"medium","wid"#,
            #"th":"compact"}},"placements":[{"adaptedFrom":null,"arrowEdge":null,"backgroundInteractive":true,"#,
            #""contentAxis":null,"cornerRadii":{"bottomLeading":0,"bottomTrailing":0,"topLeading":10,"topTrail"#,
            #"ing":10},"detents":[{"detent":"medium","height":391.5},{"detent":"large","height":783}],"dimsBac"#,
            #"kground":false,"dragIndicatorVisible":true,"frame":{"height":391.5,"width":393,"x":0,"y":460.5},"#,
            #""id":"edit","kind":"sheet","placement":{"requested":"automatic","resolved":"fullWidth"},"region""#,
            #":null,"selectedDetent":"medium","status":"presented","style":"bottomSheet","swipeToDismiss":true"#,
            #","tapOutsideToDismiss":false,"toolbarOrientation":"horizontal","transitionEdge":"bottom"},{"adap"#,
            #"tedFrom":"popover","arrowEdge":null,"backgroundInteractive":false,"contentAxis":null,"cornerRadi"#,
            #"i":{"bottomLeading":0,"bottomTrailing":0,"topLeading":10,"topTrailing":10},"detents":[{"detent":"#,
            #""medium","height":391.5},{"detent":"large","height":783}],"dimsBackground":true,"dragIndicatorVi"#,
            #"sible":true,"frame":{"height":783,"width":393,"x":0,"y":69},"id":"help","kind":"popover","placem"#,
            #"ent":null,"region":null,"selectedDetent":"large","status":"presented","style":"bottomSheet","swi"#,
            #"peToDismiss":true,"tapOutsideToDismiss":true,"toolbarOrientation":"horizontal","transitionEdge":"#,
            #""bottom"}]}"# + "\n",
            // line 9
            #"{"device": "iphone-16", "orientation": "landscape","# + "\n",
            // line 10
            #" "presentations": ["# + "\n",
            // line 11
            #"   {"id": "compose", "kind": "sheet", "detents": ["medium", "large"]},"# + "\n",
            // line 12
            #"   {"id": "attached", "kind": "sheet", "presentedFrom": "compose", "edgeAttachedInCompactHeight""#,
            #": true},"# + "\n",
            // line 13
            #"   {"id": "tools", "kind": "adaptivePanel"}"# + "\n",
            // line 14
            #" ]}"# + "\n",
            // line 15
            #"{"arrangement":null,"diagnostics":[{"code":"detents-ignored","message":"detents are ignored in a"#,
            #" compact-height window: the sheet covers the window (medium is inactive in compact height); set "#,
            #"edgeAttachedInCompactHeight to keep a bottom-attached sheet","path":"/presentations/0/detents",""#,
            #"presentation":"compose","severity":"info"},{"code":"chained-modal","message":"a modal presented "#,
            #"from the modal \"compose\": chained modals stack interruptions; consider navigating inside \"com"#,
            #"pose\" instead","path":"/presentations/1/presentedFrom","presentation":"attached","severity":"wa"#,
            #"rning"}],"engineVersion":"1.0.0","environment":{"device":"iphone-16","display":"main","dynamicTy"#,
            #"peSize":"large","fold":null,"layoutDirection":"ltr","orientation":"landscape","posture":"flat",""#,
            #"regions":[{"frame":{"height":393,"width":852,"x":0,"y":0},"side":null,"sizeClass":{"horizontal":"#,
            #""compact","vertical":"compact"}}],"safeArea":{"bottom":21,"leading":59,"top":0,"trailing":59},"s"#,
            #"izeClass":{"horizontal":"compact","vertical":"compact"},"window":{"height":393,"width":852,"x":0"#,
            #","y":0},"windowClass":{"height":"compact","width":"expanded"}},"placements":[{"adaptedFrom":null"#,
            #","arrowEdge":null,"backgroundInteractive":false,"contentAxis":null,"cornerRadii":{"bottomLeading"#,
            #"":0,"bottomTrailing":0,"topLeading":10,"topTrailing":10},"detents":null,"dimsBackground":true,"d"#,
            #"ragIndicatorVisible":false,"frame":{"height":393,"width":852,"x":0,"y":0},"id":"compose","kind":"#,
            #""sheet","placement":{"requested":"automatic","resolved":"fullWidth"},"region":null,"selectedDete"#,
            #"nt":null,"status":"presented","style":"fullWindow","swipeToDismiss":true,"tapOutsideToDismiss":t"#,
            #"rue,"toolbarOrientation":"horizontal","transitionEdge":"bottom"},{"adaptedFrom":null,"arrowEdge""#,
            #":null,"backgroundInteractive":false,"contentAxis":null,"cornerRadii":{"bottomLeading":0,"bottomT"#,
            #"railing":0,"topLeading":10,"topTrailing":10},"detents":[{"detent":"large","height":383}],"dimsBa"#,
            #"ckground":true,"dragIndicatorVisible":false,"frame":{"height":383,"width":734,"x":59,"y":10},"id"#,
            #"":"attached","kind":"sheet","placement":{"requested":"automatic","resolved":"fullWidth"},"region"#,
            #"":null,"selectedDetent":null,"status":"presented","style":"fullWindow","swipeToDismiss":true,"ta"#,
            #"pOutsideToDismiss":true,"toolbarOrientation":"horizontal","transitionEdge":"bottom"},{"adaptedFr"#,
            #"om":null,"arrowEdge":null,"backgroundInteractive":true,"contentAxis":"vertical","cornerRadii":{""#,
            #"bottomLeading":24,"bottomTrailing":0,"topLeading":24,"topTrailing":0},"detents":null,"dimsBackgr"#,
            #"ound":false,"dragIndicatorVisible":null,"frame":{"height":393,"width":360,"x":492,"y":0},"id":"t"#,
            #"ools","kind":"adaptivePanel","placement":null,"region":null,"selectedDetent":null,"status":"pres"#,
            #"ented","style":"sidePanel","swipeToDismiss":false,"tapOutsideToDismiss":false,"toolbarOrientatio"#,
            #"n":null,"transitionEdge":"trailing"}]}"# + "\n",
            // line 16
            #"{"device": "ipad-pro-11", "window": {"x": 0, "y": 0, "width": 700, "height": 900},"# + "\n",
            // line 17
            #" "presentations": ["# + "\n",
            // line 18
            #"   {"id": "inspector", "kind": "sheet", "placement": "trailing","# + "\n",
            // line 19
            #"    "toolbar": [{"title": "Done", "placement": "confirmationAction", "systemImage": "checkmark"}"#,
            #", {"title": "Share"}]},"# + "\n",
            // line 20
            #"   {"id": "tip", "kind": "popover", "presentedFrom": "inspector", "anchor": {"x": 20, "y": 20, ""#,
            #"width": 44, "height": 44}}"# + "\n",
            // line 21
            #" ]}"# + "\n",
            // line 22
            #"{"arrangement":null,"diagnostics":[{"code":"toolbar-item-missing-icon","message":"toolbar item \"#,
            #""Share\" has no systemImage: the sheet sits at the trailing edge with a vertical toolbar, which "#,
            #"shows icons; give it a systemImage","path":"/presentations/0/toolbar/1","presentation":"inspecto"#,
            #"r","severity":"warning"},{"code":"chained-modal","message":"a modal presented from the modal \"i"#,
            #"nspector\": chained modals stack interruptions; consider navigating inside \"inspector\" instead"#,
            #"","path":"/presentations/1/presentedFrom","presentation":"tip","severity":"warning"}],"engineVer"#,
            #"sion":"1.0.0","environment":{"device":"ipad-pro-11","display":"main","dynamicTypeSize":"large",""#,
            #"fold":null,"layoutDirection":"ltr","orientation":"portrait","posture":"flat","regions":[{"frame""#,
            #":{"height":900,"width":700,"x":0,"y":0},"side":null,"sizeClass":{"horizontal":"regular","vertica"#,
            #"l":"regular"}}],"safeArea":{"bottom":0,"leading":0,"top":0,"trailing":0},"sizeClass":{"horizonta"#,
            #"l":"regular","vertical":"regular"},"window":{"height":900,"width":700,"x":0,"y":0},"windowClass""#,
            #":{"height":"expanded","width":"medium"}},"placements":[{"adaptedFrom":null,"arrowEdge":null,"bac"#,
            #"kgroundInteractive":false,"contentAxis":null,"cornerRadii":{"bottomLeading":10,"bottomTrailing":"#,
            #"10,"topLeading":10,"topTrailing":10},"detents":null,"dimsBackground":true,"dragIndicatorVisible""#,
            #":false,"frame":{"height":620,"width":540,"x":140,"y":140},"id":"inspector","kind":"sheet","place"#,
            #"ment":{"requested":"trailing","resolved":"trailing"},"region":null,"selectedDetent":null,"status"#,
            #"":"presented","style":"card","swipeToDismiss":true,"tapOutsideToDismiss":true,"toolbarOrientatio"#,
            #"n":"vertical","transitionEdge":"bottom"},{"adaptedFrom":null,"arrowEdge":"top","backgroundIntera"#,
            #"ctive":false,"contentAxis":null,"cornerRadii":null,"detents":null,"dimsBackground":false,"dragIn"#,
            #"dicatorVisible":null,"frame":{"height":320,"width":320,"x":10,"y":64},"id":"tip","kind":"popover"#,
            #"","placement":null,"region":null,"selectedDetent":null,"status":"presented","style":"popover","s"#,
            #"wipeToDismiss":false,"tapOutsideToDismiss":true,"toolbarOrientation":null,"transitionEdge":null}"#,
            #"]}"# + "\n",
            // line 23
            #"{"device": "iphone-duo", "posture": "halfOpened","# + "\n",
            // line 24
            #" "presentations": ["# + "\n",
            // line 25
            #"   {"id": "notes", "kind": "sheet", "placement": "center", "detents": ["medium", "large"]},"# + "\n",
            // line 26
            #"   {"id": "inspector", "kind": "sheet", "placement": "trailing", "presentedFrom": "notes"}"# + "\n",
            // line 27
            #" ]}"# + "\n",
            // line 28
            #"{"arrangement":null,"diagnostics":[{"code":"placement-moved-by-fold","message":"placement \"cent"#,
            #"er\" would cross the fold: the sheet moves to the leading region (only trailing takes the traili"#,
            #"ng half)","path":"/presentations/0/placement","presentation":"notes","severity":"info"},{"code":"#,
            #""chained-modal","message":"a modal presented from the modal \"notes\": chained modals stack inte"#,
            #"rruptions; consider navigating inside \"notes\" instead","path":"/presentations/1/presentedFrom""#,
            #","presentation":"inspector","severity":"warning"}],"engineVersion":"1.0.0","environment":{"devic"#,
            #"e":"iphone-duo","display":"inner","dynamicTypeSize":"large","fold":{"bounds":{"height":832,"widt"#,
            #"h":0,"x":376,"y":0},"orientation":"vertical","separating":true,"state":"halfOpened"},"layoutDire"#,
            #"ction":"ltr","orientation":"portrait","posture":"halfOpened","regions":[{"frame":{"height":832,""#,
            #"width":376,"x":0,"y":0},"side":"leading","sizeClass":{"horizontal":"compact","vertical":"regular"#,
            #""}},{"frame":{"height":832,"width":376,"x":376,"y":0},"side":"trailing","sizeClass":{"horizontal"#,
            #"":"compact","vertical":"regular"}}],"safeArea":{"bottom":20,"leading":0,"top":24,"trailing":0},""#,
            #"sizeClass":{"horizontal":"regular","vertical":"regular"},"window":{"height":832,"width":752,"x":"#,
            #"0,"y":0},"windowClass":{"height":"medium","width":"medium"}},"placements":[{"adaptedFrom":null,""#,
            #"arrowEdge":null,"backgroundInteractive":false,"contentAxis":null,"cornerRadii":{"bottomLeading":"#,
            #"0,"bottomTrailing":0,"topLeading":10,"topTrailing":10},"detents":[{"detent":"medium","height":39"#,
            #"9},{"detent":"large","height":798}],"dimsBackground":true,"dragIndicatorVisible":true,"frame":{""#,
            #"height":399,"width":376,"x":0,"y":433},"id":"notes","kind":"sheet","placement":{"requested":"cen"#,
            #"ter","resolved":"leading"},"region":"leading","selectedDetent":"medium","status":"presented","st"#,
            #"yle":"regionSheet","swipeToDismiss":true,"tapOutsideToDismiss":true,"toolbarOrientation":"horizo"#,
            #"ntal","transitionEdge":"bottom"},{"adaptedFrom":null,"arrowEdge":null,"backgroundInteractive":fa"#,
            #"lse,"contentAxis":null,"cornerRadii":{"bottomLeading":0,"bottomTrailing":0,"topLeading":10,"topT"#,
            #"railing":10},"detents":[{"detent":"large","height":798}],"dimsBackground":true,"dragIndicatorVis"#,
            #"ible":false,"frame":{"height":798,"width":376,"x":376,"y":34},"id":"inspector","kind":"sheet","p"#,
            #"lacement":{"requested":"trailing","resolved":"trailing"},"region":"trailing","selectedDetent":"l"#,
            #"arge","status":"presented","style":"regionSheet","swipeToDismiss":true,"tapOutsideToDismiss":tru"#,
            #"e,"toolbarOrientation":"vertical","transitionEdge":"bottom"}]}"# + "\n",
            // line 29
            #"{"device": "iphone-duo", "posture": "halfOpened","# + "\n",
            // line 30
            #" "presentations": ["# + "\n",
            // line 31
            #"   {"id": "tools", "kind": "adaptivePanel"},"# + "\n",
            // line 32
            #"   {"id": "info", "kind": "popover", "anchor": {"x": 100, "y": 200, "width": 40, "height": 40}, "#,
            #""arrowEdge": "leading","# + "\n",
            // line 33
            #"    "compactAdaptation": "popover"},"# + "\n",
            // line 34
            #"   {"id": "full", "kind": "fullScreenCover"}"# + "\n",
            // line 35
            #" ]}"# + "\n",
            // line 36
            #"{"arrangement":null,"diagnostics":[{"code":"concurrent-presentation","message":"an earlier modal"#,
            #" is still up: SwiftUI ignores a second presentation from the same context; give it presentedFrom"#,
            #" (the modal on top) or present it after dismissing the first","path":"/presentations/2","present"#,
            #"ation":"full","severity":"warning"}],"engineVersion":"1.0.0","environment":{"device":"iphone-duo"#,
            #"","display":"inner","dynamicTypeSize":"large","fold":{"bounds":{"height":832,"width":0,"x":376,""#,
            #"y":0},"orientation":"vertical","separating":true,"state":"halfOpened"},"layoutDirection":"ltr",""#,
            #"orientation":"portrait","posture":"halfOpened","regions":[{"frame":{"height":832,"width":376,"x""#,
            #":0,"y":0},"side":"leading","sizeClass":{"horizontal":"compact","vertical":"regular"}},{"frame":{"#,
            #""height":832,"width":376,"x":376,"y":0},"side":"trailing","sizeClass":{"horizontal":"compact","v"#,
            #"ertical":"regular"}}],"safeArea":{"bottom":20,"leading":0,"top":24,"trailing":0},"sizeClass":{"h"#,
            #"orizontal":"regular","vertical":"regular"},"window":{"height":832,"width":752,"x":0,"y":0},"wind"#,
            #"owClass":{"height":"medium","width":"medium"}},"placements":[{"adaptedFrom":null,"arrowEdge":nul"#,
            #"l,"backgroundInteractive":true,"contentAxis":"vertical","cornerRadii":{"bottomLeading":24,"botto"#,
            #"mTrailing":0,"topLeading":24,"topTrailing":0},"detents":null,"dimsBackground":false,"dragIndicat"#,
            #"orVisible":null,"frame":{"height":832,"width":360,"x":392,"y":0},"id":"tools","kind":"adaptivePa"#,
            #"nel","placement":null,"region":"trailing","selectedDetent":null,"status":"presented","style":"si"#,
            #"dePanel","swipeToDismiss":false,"tapOutsideToDismiss":false,"toolbarOrientation":null,"transitio"#,
            #"nEdge":"trailing"},{"adaptedFrom":null,"arrowEdge":"leading","backgroundInteractive":false,"cont"#,
            #"entAxis":null,"cornerRadii":null,"detents":null,"dimsBackground":false,"dragIndicatorVisible":nu"#,
            #"ll,"frame":{"height":320,"width":320,"x":46,"y":60},"id":"info","kind":"popover","placement":nul"#,
            #"l,"region":"leading","selectedDetent":null,"status":"presented","style":"popover","swipeToDismis"#,
            #"s":false,"tapOutsideToDismiss":true,"toolbarOrientation":null,"transitionEdge":null},{"adaptedFr"#,
            #"om":null,"arrowEdge":null,"backgroundInteractive":null,"contentAxis":null,"cornerRadii":null,"de"#,
            #"tents":null,"dimsBackground":null,"dragIndicatorVisible":null,"frame":null,"id":"full","kind":"f"#,
            #"ullScreenCover","placement":null,"region":null,"selectedDetent":null,"status":"ignored","style":"#,
            #"null,"swipeToDismiss":null,"tapOutsideToDismiss":null,"toolbarOrientation":null,"transitionEdge""#,
            #":null}]}"# + "\n",
            // line 37
            #"{"device": "iphone-duo", "posture": "halfOpened", "layoutDirection": "rtl","# + "\n",
            // line 38
            #" "presentations": ["# + "\n",
            // line 39
            #"   {"id": "panel", "kind": "adaptivePanel", "alignment": "leading"},"# + "\n",
            // line 40
            #"   {"id": "editor", "kind": "sheet", "placement": "trailing"}"# + "\n",
            // line 41
            #" ],"# + "\n",
            // line 42
            #" "arrangement": {"style": "overlay"}}"# + "\n",
            // line 43
            #"{"arrangement":{"axis":null,"primary":{"frame":{"height":832,"width":376,"x":0,"y":0},"region":""#,
            #"trailing","visible":true,"zIndex":0},"secondary":{"frame":{"height":832,"width":376,"x":376,"y":"#,
            #"0},"region":"leading","visible":true,"zIndex":0},"separated":true,"style":"overlay"},"diagnostic"#,
            #"s":[],"engineVersion":"1.0.0","environment":{"device":"iphone-duo","display":"inner","dynamicTyp"#,
            #"eSize":"large","fold":{"bounds":{"height":832,"width":0,"x":376,"y":0},"orientation":"vertical","#,
            #""separating":true,"state":"halfOpened"},"layoutDirection":"rtl","orientation":"portrait","postur"#,
            #"e":"halfOpened","regions":[{"frame":{"height":832,"width":376,"x":0,"y":0},"side":"trailing","si"#,
            #"zeClass":{"horizontal":"compact","vertical":"regular"}},{"frame":{"height":832,"width":376,"x":3"#,
            #"76,"y":0},"side":"leading","sizeClass":{"horizontal":"compact","vertical":"regular"}}],"safeArea"#,
            #"":{"bottom":20,"leading":0,"top":24,"trailing":0},"sizeClass":{"horizontal":"regular","vertical""#,
            #":"regular"},"window":{"height":832,"width":752,"x":0,"y":0},"windowClass":{"height":"medium","wi"#,
            #"dth":"medium"}},"placements":[{"adaptedFrom":null,"arrowEdge":null,"backgroundInteractive":true,"#,
            #""contentAxis":"vertical","cornerRadii":{"bottomLeading":0,"bottomTrailing":24,"topLeading":0,"to"#,
            #"pTrailing":24},"detents":null,"dimsBackground":false,"dragIndicatorVisible":null,"frame":{"heigh"#,
            #"t":832,"width":360,"x":392,"y":0},"id":"panel","kind":"adaptivePanel","placement":null,"region":"#,
            #""leading","selectedDetent":null,"status":"presented","style":"sidePanel","swipeToDismiss":false,"#,
            #""tapOutsideToDismiss":false,"toolbarOrientation":null,"transitionEdge":"leading"},{"adaptedFrom""#,
            #":null,"arrowEdge":null,"backgroundInteractive":false,"contentAxis":null,"cornerRadii":{"bottomLe"#,
            #"ading":0,"bottomTrailing":0,"topLeading":10,"topTrailing":10},"detents":[{"detent":"large","heig"#,
            #"ht":798}],"dimsBackground":true,"dragIndicatorVisible":false,"frame":{"height":798,"width":376,""#,
            #"x":0,"y":34},"id":"editor","kind":"sheet","placement":{"requested":"trailing","resolved":"traili"#,
            #"ng"},"region":"trailing","selectedDetent":"large","status":"presented","style":"regionSheet","sw"#,
            #"ipeToDismiss":true,"tapOutsideToDismiss":true,"toolbarOrientation":"vertical","transitionEdge":""#,
            #"bottom"}]}"# + "\n",
            // line 44
            #"{"device": "iphone-duo", "posture": "halfOpened", "orientation": "landscape","# + "\n",
            // line 45
            #" "presentations": [{"id": "form", "kind": "sheet"}],"# + "\n",
            // line 46
            #" "arrangement": {"style": "split", "secondary": {"ratio": 0.35}}}"# + "\n",
            // line 47
            #"{"arrangement":{"axis":"vertical","primary":{"frame":{"height":376,"width":832,"x":0,"y":0},"reg"#,
            #"ion":"top","visible":true,"zIndex":0},"secondary":{"frame":{"height":376,"width":832,"x":0,"y":3"#,
            #"76},"region":"bottom","visible":true,"zIndex":0},"separated":true,"style":"split"},"diagnostics""#,
            #":[{"code":"split-follows-fold","message":"the split follows the fold: the primary view takes the"#,
            #" top region and the secondary the bottom region; size preferences do not apply while the device "#,
            #"is folded","path":"/arrangement","presentation":null,"severity":"info"}],"engineVersion":"1.0.0""#,
            #","environment":{"device":"iphone-duo","display":"inner","dynamicTypeSize":"large","fold":{"bound"#,
            #"s":{"height":0,"width":832,"x":0,"y":376},"orientation":"horizontal","separating":true,"state":""#,
            #"halfOpened"},"layoutDirection":"ltr","orientation":"landscape","posture":"halfOpened","regions":"#,
            #"[{"frame":{"height":376,"width":832,"x":0,"y":0},"side":"top","sizeClass":{"horizontal":"regular"#,
            #"","vertical":"compact"}},{"frame":{"height":376,"width":832,"x":0,"y":376},"side":"bottom","size"#,
            #"Class":{"horizontal":"regular","vertical":"compact"}}],"safeArea":{"bottom":20,"leading":0,"top""#,
            #":24,"trailing":0},"sizeClass":{"horizontal":"regular","vertical":"regular"},"window":{"height":7"#,
            #"52,"width":832,"x":0,"y":0},"windowClass":{"height":"medium","width":"medium"}},"placements":[{""#,
            #"adaptedFrom":null,"arrowEdge":null,"backgroundInteractive":false,"contentAxis":null,"cornerRadii"#,
            #"":{"bottomLeading":10,"bottomTrailing":10,"topLeading":10,"topTrailing":10},"detents":null,"dims"#,
            #"Background":true,"dragIndicatorVisible":false,"frame":{"height":336,"width":540,"x":146,"y":396}"#,
            #","id":"form","kind":"sheet","placement":{"requested":"automatic","resolved":"center"},"region":""#,
            #"bottom","selectedDetent":null,"status":"presented","style":"regionSheet","swipeToDismiss":true,""#,
            #"tapOutsideToDismiss":true,"toolbarOrientation":"horizontal","transitionEdge":"bottom"}]}"# + "\n",
            // line 48
            #"{"device": "ipad-pro-11", "orientation": "landscape","# + "\n",
            // line 49
            #" "presentations": ["# + "\n",
            // line 50
            #"   {"id": "filters", "kind": "adaptivePanel", "alignment": "leading", "modal": true},"# + "\n",
            // line 51
            #"   {"id": "details", "kind": "sheet", "sizing": "page", "presentedFrom": "filters"}"# + "\n",
            // line 52
            #" ],"# + "\n",
            // line 53
            #" "arrangement": {"style": "split", "secondary": {"ratio": {"minHorizontal": 0.3, "idealHorizonta"#,
            #"l": 0.35, "maxHorizontal": 0.45, "idealVertical": 0.4}}}}"# + "\n",
            // line 54
            #"{"arrangement":{"axis":"horizontal","primary":{"frame":{"height":834,"width":786.5,"x":0,"y":0},"#,
            #""region":null,"visible":true,"zIndex":0},"secondary":{"frame":{"height":834,"width":423.5,"x":78"#,
            #"6.5,"y":0},"region":null,"visible":true,"zIndex":0},"separated":false,"style":"split"},"diagnost"#,
            #"ics":[{"code":"chained-modal","message":"a modal presented from the modal \"filters\": chained m"#,
            #"odals stack interruptions; consider navigating inside \"filters\" instead","path":"/presentation"#,
            #"s/1/presentedFrom","presentation":"details","severity":"warning"}],"engineVersion":"1.0.0","envi"#,
            #"ronment":{"device":"ipad-pro-11","display":"main","dynamicTypeSize":"large","fold":null,"layoutD"#,
            #"irection":"ltr","orientation":"landscape","posture":"flat","regions":[{"frame":{"height":834,"wi"#,
            #"dth":1210,"x":0,"y":0},"side":null,"sizeClass":{"horizontal":"regular","vertical":"regular"}}],""#,
            #"safeArea":{"bottom":20,"leading":0,"top":24,"trailing":0},"sizeClass":{"horizontal":"regular","v"#,
            #"ertical":"regular"},"window":{"height":834,"width":1210,"x":0,"y":0},"windowClass":{"height":"me"#,
            #"dium","width":"large"}},"placements":[{"adaptedFrom":null,"arrowEdge":null,"backgroundInteractiv"#,
            #"e":false,"contentAxis":"vertical","cornerRadii":{"bottomLeading":0,"bottomTrailing":24,"topLeadi"#,
            #"ng":0,"topTrailing":24},"detents":null,"dimsBackground":true,"dragIndicatorVisible":null,"frame""#,
            #":{"height":834,"width":360,"x":0,"y":0},"id":"filters","kind":"adaptivePanel","placement":null,""#,
            #"region":null,"selectedDetent":null,"status":"presented","style":"sidePanel","swipeToDismiss":fal"#,
            #"se,"tapOutsideToDismiss":true,"toolbarOrientation":null,"transitionEdge":"leading"},{"adaptedFro"#,
            #"m":null,"arrowEdge":null,"backgroundInteractive":false,"contentAxis":null,"cornerRadii":{"bottom"#,
            #"Leading":10,"bottomTrailing":10,"topLeading":10,"topTrailing":10},"detents":null,"dimsBackground"#,
            #"":true,"dragIndicatorVisible":false,"frame":{"height":794,"width":704,"x":253,"y":20},"id":"deta"#,
            #"ils","kind":"sheet","placement":{"requested":"automatic","resolved":"center"},"region":null,"sel"#,
            #"ectedDetent":null,"status":"presented","style":"card","swipeToDismiss":true,"tapOutsideToDismiss"#,
            #"":true,"toolbarOrientation":"horizontal","transitionEdge":"bottom"}]}"# + "\n",
            // line 55
            #"{"device": "iphone-duo","# + "\n",
            // line 56
            #" "presentations": ["# + "\n",
            // line 57
            #"   {"id": "sheet", "kind": "sheet"},"# + "\n",
            // line 58
            #"   {"id": "pop", "kind": "popover", "presentedFrom": "sheet", "anchor": {"x": 900, "y": 100, "wi"#,
            #"dth": 40, "height": 40}}"# + "\n",
            // line 59
            #" ],"# + "\n",
            // line 60
            #" "arrangement": {"style": "split"}}"# + "\n",
            // line 61
            #"{"arrangement":{"axis":"vertical","primary":{"frame":{"height":416,"width":752,"x":0,"y":0},"reg"#,
            #"ion":null,"visible":true,"zIndex":0},"secondary":{"frame":{"height":416,"width":752,"x":0,"y":41"#,
            #"6},"region":null,"visible":true,"zIndex":0},"separated":false,"style":"split"},"diagnostics":[{""#,
            #"code":"chained-modal","message":"a modal presented from the modal \"sheet\": chained modals stac"#,
            #"k interruptions; consider navigating inside \"sheet\" instead","path":"/presentations/1/presente"#,
            #"dFrom","presentation":"pop","severity":"warning"}],"engineVersion":"1.0.0","environment":{"devic"#,
            #"e":"iphone-duo","display":"inner","dynamicTypeSize":"large","fold":{"bounds":{"height":832,"widt"#,
            #"h":0,"x":376,"y":0},"orientation":"vertical","separating":false,"state":"flat"},"layoutDirection"#,
            #"":"ltr","orientation":"portrait","posture":"flat","regions":[{"frame":{"height":832,"width":752,"#,
            #""x":0,"y":0},"side":null,"sizeClass":{"horizontal":"regular","vertical":"regular"}}],"safeArea":"#,
            #"{"bottom":20,"leading":0,"top":24,"trailing":0},"sizeClass":{"horizontal":"regular","vertical":""#,
            #"regular"},"window":{"height":832,"width":752,"x":0,"y":0},"windowClass":{"height":"medium","widt"#,
            #"h":"medium"}},"placements":[{"adaptedFrom":null,"arrowEdge":null,"backgroundInteractive":false,""#,
            #"contentAxis":null,"cornerRadii":{"bottomLeading":10,"bottomTrailing":10,"topLeading":10,"topTrai"#,
            #"ling":10},"detents":null,"dimsBackground":true,"dragIndicatorVisible":false,"frame":{"height":62"#,
            #"0,"width":540,"x":106,"y":106},"id":"sheet","kind":"sheet","placement":{"requested":"automatic","#,
            #""resolved":"center"},"region":null,"selectedDetent":null,"status":"presented","style":"card","sw"#,
            #"ipeToDismiss":true,"tapOutsideToDismiss":true,"toolbarOrientation":"horizontal","transitionEdge""#,
            #":"bottom"},{"adaptedFrom":null,"arrowEdge":"top","backgroundInteractive":false,"contentAxis":nul"#,
            #"l,"cornerRadii":null,"detents":null,"dimsBackground":false,"dragIndicatorVisible":null,"frame":{"#,
            #""height":320,"width":320,"x":422,"y":140},"id":"pop","kind":"popover","placement":null,"region":"#,
            #"null,"selectedDetent":null,"status":"presented","style":"popover","swipeToDismiss":false,"tapOut"#,
            #"sideToDismiss":true,"toolbarOrientation":null,"transitionEdge":null}]}"# + "\n",
            // line 62
            #"{"window": {"width": 1000, "height": 700}, "layoutDirection": "rtl", "safeArea": {"top": 20}, "c"#,
            #"olour": "blue","# + "\n",
            // line 63
            #" "constants": {"arrangement.defaultRatio": 0.3},"# + "\n",
            // line 64
            #" "presentations": ["# + "\n",
            // line 65
            #"   {"id": "card", "kind": "sheet", "placement": "leading", "sizing": "fitted", "contentSize": {""#,
            #"width": 400, "height": 300}},"# + "\n",
            // line 66
            #"   {"id": "pop", "kind": "popover", "presentedFrom": "card", "anchor": {"x": 100, "y": 600, "wid"#,
            #"th": 50, "height": 50}}"# + "\n",
            // line 67
            #" ],"# + "\n",
            // line 68
            #" "arrangement": {"style": "split"}}"# + "\n",
            // line 69
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

// @inline ../../shared/drawing.js
// @inline ../../shared/controller.js
// @inline main.js

// The projector pages through long tables: each table marked data-paginate shows N rows at a
// time and moves to the next page every ~12 s, with "Page x of y" in the element marked
// data-page-indicator of the same name. N fits the screen unless the page sets data-rows
// (?rows= in the URL); the interval is data-seconds (?seconds=). After live.js swaps in fresh
// tables ("live:updated") the paging starts again from the page it was on. Without this script
// every row is shown.
(function () {
  'use strict';

  var DEFAULT_SECONDS = 12;
  var MIN_ROWS = 3;
  var INDICATOR_PX = 40;  // the page indicator and a margin under the last row

  function init() {
    var root = document.querySelector('[data-projector]');
    if (!root) return;
    var fixedRows = parseInt(root.getAttribute('data-rows'), 10) || 0;
    var seconds = parseInt(root.getAttribute('data-seconds'), 10) || DEFAULT_SECONDS;
    var text = root.getAttribute('data-page-text') || 'Page {page} of {pages}';
    var pages = {};  // table name -> {page, count}

    function rowsThatFit(table, rows) {
      if (fixedRows) return fixedRows;
      rows.forEach(function (row) { row.hidden = false; });
      var height = 0;  // the tallest row, so that no page runs off the screen
      rows.forEach(function (row) { height = Math.max(height, row.getBoundingClientRect().height); });
      if (!height) return rows.length;
      var body = table.tBodies[0].getBoundingClientRect();
      var room = window.innerHeight - body.top - INDICATOR_PX;
      return Math.max(MIN_ROWS, Math.floor(room / height));
    }

    function layout() {
      Array.prototype.forEach.call(root.querySelectorAll('table[data-paginate]'), function (table) {
        var name = table.getAttribute('data-paginate');
        var rows = Array.prototype.slice.call(table.tBodies[0] ? table.tBodies[0].rows : []);
        var perPage = rowsThatFit(table, rows);
        var count = Math.max(1, Math.ceil(rows.length / perPage));
        var state = pages[name] || {page: 0};
        state.count = count;
        state.perPage = perPage;
        if (state.page >= count) state.page = 0;
        pages[name] = state;
        show(table, name);
      });
    }

    function show(table, name) {
      var state = pages[name];
      var rows = Array.prototype.slice.call(table.tBodies[0] ? table.tBodies[0].rows : []);
      var start = state.page * state.perPage;
      rows.forEach(function (row, i) { row.hidden = i < start || i >= start + state.perPage; });
      table.setAttribute('data-page', String(state.page + 1));
      var indicator = root.querySelector('[data-page-indicator="' + name + '"]');
      if (indicator) {
        indicator.textContent = state.count > 1
          ? text.replace('{page}', state.page + 1).replace('{pages}', state.count) : '';
      }
    }

    function turn() {
      Object.keys(pages).forEach(function (name) {
        var state = pages[name];
        var table = root.querySelector('table[data-paginate="' + name + '"]');
        if (!table || state.count < 2) return;
        state.page = (state.page + 1) % state.count;
        show(table, name);
      });
    }

    layout();
    setInterval(turn, seconds * 1000);
    root.addEventListener('live:updated', layout);
    var resizing = null;
    window.addEventListener('resize', function () {
      clearTimeout(resizing);
      resizing = setTimeout(layout, 200);
    });
  }

  if (document.readyState === 'loading') document.addEventListener('DOMContentLoaded', init);
  else init();
}());

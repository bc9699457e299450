/* global document */
// Shows each booking's local time next to its UTC time. Without this script the page is the
// UTC schedule on its own. Writes text only (never markup), so the page's CSP holds.
(function () {
  'use strict';
  var rows = document.querySelectorAll('tr[data-start][data-end]');
  if (rows.length === 0 || typeof Intl === 'undefined') return;
  var time = new Intl.DateTimeFormat(undefined, { hour: '2-digit', minute: '2-digit' });
  var day = new Intl.DateTimeFormat(undefined, { weekday: 'short', day: 'numeric', month: 'short' });
  var zone = Intl.DateTimeFormat().resolvedOptions().timeZone || 'local time';
  rows.forEach(function (row) {
    var start = new Date(row.getAttribute('data-start'));
    var end = new Date(row.getAttribute('data-end'));
    if (isNaN(start.getTime()) || isNaN(end.getTime())) return;
    var cell = row.querySelector('td.time');
    if (!cell) return;
    var local = document.createElement('span');
    local.className = 'local';
    var sameDay = start.toDateString() === end.toDateString();
    local.textContent =
      day.format(start) + ' ' + time.format(start) + '–' + (sameDay ? '' : day.format(end) + ' ') + time.format(end) + ' (' + zone + ')';
    cell.appendChild(local);
  });
  var note = document.querySelector('.local-note');
  if (note) note.hidden = false;
})();

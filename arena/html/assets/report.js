// Sorting the report's tables: click a header to sort by that column, again to reverse.
"use strict";
(function () {
  for (const table of document.querySelectorAll("table.sortable")) {
    const headers = table.querySelectorAll("thead th");
    headers.forEach((header, column) => {
      header.addEventListener("click", () => {
        const ascending = !header.classList.contains("sorted-asc");
        headers.forEach((h) => h.classList.remove("sorted-asc", "sorted-desc"));
        header.classList.add(ascending ? "sorted-asc" : "sorted-desc");
        const body = table.tBodies[0];
        const rows = Array.from(body.rows);
        const key = (row) => {
          const cell = row.cells[column];
          const raw = cell.dataset.sort !== undefined ? cell.dataset.sort : cell.textContent;
          const number = Number(raw);
          return raw !== "" && !Number.isNaN(number) ? number : raw.toLowerCase();
        };
        rows.sort((a, b) => {
          const x = key(a), y = key(b);
          const order = typeof x === "number" && typeof y === "number" ? x - y : String(x).localeCompare(String(y));
          return ascending ? order : -order;
        });
        for (const row of rows) body.appendChild(row);
      });
    });
  }
})();

// The console's own behaviour, in one static file: the Content-Security-Policy allows no inline
// script or event-handler attribute (docs/security.md). Loaded with `defer`, so the page is parsed.
(() => {
  "use strict";

  // Buttons marked data-print print the page (the chip slips).
  for (const button of document.querySelectorAll("button[data-print]")) {
    button.addEventListener("click", () => window.print());
  }

  // As the counts are typed: what the chips come to and, for an opener, which denominations differ
  // from the previous closer. The server checks both again; this only shows them early.
  const dollars = (cents) =>
    (cents < 0 ? "-$" : "$") +
    (Math.abs(cents) / 100).toLocaleString("en-US", {minimumFractionDigits: 2, maximumFractionDigits: 2});

  for (const table of document.querySelectorAll("table.count-form")) {
    const shown = table.parentElement.querySelector(".chips-value");
    const update = () => {
      let total = 0;
      for (const row of table.querySelectorAll("tr.denomination")) {
        const typed = row.querySelector("input").value.trim();
        const count = typed === "" ? 0 : Number(typed);
        if (Number.isInteger(count)) total += count * Number(row.dataset.denomination);
        if (row.dataset.previous !== undefined) {
          const differs = count !== Number(row.dataset.previous);
          row.classList.toggle("differs", differs);
          const flag = row.querySelector("td.flag");
          flag.replaceChildren();
          if (differs) {
            const mark = document.createElement("span");
            mark.className = "alarm";
            mark.textContent = "differs";
            flag.append(mark);
          }
        }
      }
      let text = `The chips entered come to ${dollars(total)}`;
      if (table.dataset.previousTotal !== undefined) {
        const previous = Number(table.dataset.previousTotal);
        text += `; the previous closer was ${dollars(previous)} (difference ${dollars(total - previous)})`;
      }
      shown.textContent = text + ".";
    };
    table.addEventListener("input", update);
    update();
  }
})();

// The "Keyboard shortcuts" popover's content, loaded when the bettor first opens it (not needed at first paint).

const SHORTCUTS: readonly [key: string, what: string][] = [
  ['r', 'Refresh now'],
  ['a', 'Turn Auto on or off'],
  ['/', 'Go to the filters'],
];

export default function ShortcutsHelp() {
  return (
    <>
      <dl className="grid grid-cols-[auto_1fr] gap-x-3 gap-y-1.5 text-sm">
        {SHORTCUTS.map(([key, what]) => (
          <div key={key} className="contents">
            <dt>
              <kbd className="rounded border border-slate-600 bg-slate-800 px-1.5 font-mono text-xs text-slate-100">
                {key}
              </kbd>
            </dt>
            <dd className="text-slate-300">{what}</dd>
          </div>
        ))}
      </dl>
      <p className="mt-2 text-xs text-slate-400">Not while typing in a field, nor with Ctrl, Alt or ⌘.</p>
    </>
  );
}

import { useEffect, useState } from 'react';
import * as api from '../../api';
import './mcp.css';

// How a tool result names an image Errand kept (backend/mcp ImageRef): the
// model reads the words, the window shows the image in their place.
const IMAGE = /\[image ([\w.+/-]+), (\d+) bytes, shown to the user: errand-image:([0-9a-f-]{36})\]/g;

type Part = { text: string } | { image: string; mime: string };

/** The text of a tool result cut around the images it names. */
export function partsOf(text: string): Part[] {
  const parts: Part[] = [];
  let last = 0;
  for (const m of text.matchAll(IMAGE)) {
    if (m.index > last) parts.push({ text: text.slice(last, m.index) });
    parts.push({ image: m[3] ?? '', mime: m[1] ?? '' });
    last = m.index + m[0].length;
  }
  if (last < text.length || parts.length === 0) parts.push({ text: text.slice(last) });
  return parts;
}

/** A tool row's body: its text, with the images a tool returned shown as images. */
export function ToolBody({ id, text }: { id?: string; text: string }) {
  return (
    <pre id={id} className="tool-body">
      {text === ''
        ? '(empty)'
        : partsOf(text).map((p, i) =>
            'image' in p ? <ToolImage key={i} id={p.image} mime={p.mime} /> : <span key={i}>{p.text}</span>,
          )}
    </pre>
  );
}

function ToolImage({ id, mime }: { id: string; mime: string }) {
  const [src, setSrc] = useState('');
  const [failed, setFailed] = useState('');
  useEffect(() => {
    let live = true;
    api.toolImage(id).then(
      (url) => live && setSrc(url),
      (err) => live && setFailed(String((err as Error).message ?? err)),
    );
    return () => {
      live = false;
    };
  }, [id]);
  if (failed) return <span className="mcp-refused">[image not shown: {failed}]</span>;
  if (!src) return <span>[loading image…]</span>;
  return <img className="mcp-result-image" src={src} alt={`Image returned by the tool (${mime})`} />;
}

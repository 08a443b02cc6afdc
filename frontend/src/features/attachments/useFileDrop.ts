import { useEffect, useRef, useState, type DragEvent } from 'react';
import { onFileDrop } from '../../events';
import { addFiles, addPaths } from '../../stores/attachmentActions';

/**
 * Whether the desktop window hands dropped files to Go by path (Wails'
 * file drop, main.go's DragAndDrop.EnableFileDrop): then Go reads and
 * checks each file (a symlink or a FIFO never reaches the page), and the
 * page's own drop event only ends the drag. In a browser (the dev build)
 * the dropped File objects are read here.
 */
function pathsFromGo(): boolean {
  const w = globalThis as { wails?: { flags?: { enableWailsDragAndDrop?: boolean } } };
  return w.wails?.flags?.enableWailsDragAndDrop === true;
}

const carriesFiles = (e: DragEvent) => !!e.dataTransfer && [...e.dataTransfer.types].includes('Files');

/** Files dropped on the chat (transcript or composer) go to its composer; `over` while they are dragged over it. */
export function useFileDrop(conversationId: string) {
  const [over, setOver] = useState(false);
  // dragenter/dragleave fire for each child crossed: count them.
  const depth = useRef(0);

  useEffect(() => onFileDrop((paths) => void addPaths(conversationId, paths)), [conversationId]);

  const handlers = {
    onDragEnter: (e: DragEvent) => {
      if (!carriesFiles(e)) return;
      e.preventDefault();
      depth.current += 1;
      setOver(true);
    },
    onDragOver: (e: DragEvent) => {
      if (!carriesFiles(e)) return;
      e.preventDefault();
      e.dataTransfer.dropEffect = 'copy';
    },
    onDragLeave: (e: DragEvent) => {
      if (!carriesFiles(e)) return;
      depth.current = Math.max(0, depth.current - 1);
      if (depth.current === 0) setOver(false);
    },
    onDrop: (e: DragEvent) => {
      if (!carriesFiles(e)) return;
      e.preventDefault();
      depth.current = 0;
      setOver(false);
      if (!pathsFromGo()) void addFiles(conversationId, [...e.dataTransfer.files]);
    },
  };
  return { over, handlers };
}

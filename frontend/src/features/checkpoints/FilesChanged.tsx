import { useEffect, type ComponentProps } from 'react';
import { lazyView } from '../../components/LazyView';
import { filesToShow, useFilesChanged } from '../../stores/filesChanged';
import { watchFilesChanged } from '../../stores/sync';

// Most tasks change no files: the card's code loads once the first screen
// is painted, and is shown only for a task that did.
const FilesChangedCard = lazyView('the files changed', () => import('./FilesChangedCard').then((m) => m.FilesChangedCard), {
  prefetch: true,
});

/** The files a task changed (FilesChangedCard), once Go says there are some, or why they could not be read. */
export function FilesChanged(props: ComponentProps<typeof FilesChangedCard>) {
  const { changed, error } = useFilesChanged(props.taskId);
  useEffect(() => watchFilesChanged(props.taskId), [props.taskId]);
  if (!error && !filesToShow(changed)) return null;
  return <FilesChangedCard {...props} />;
}

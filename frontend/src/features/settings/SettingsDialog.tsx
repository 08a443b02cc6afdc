import { useId, useRef } from 'react';
import { Modal } from '../../components/Modal';
import { askConfirm } from '../../stores/confirm';
import type { SettingsSection } from '../../stores/settingsView';
import { ApprovalsFields } from './ApprovalsFields';
import { CheckpointsFields } from './CheckpointsFields';
import { InstructionsFields } from './InstructionsFields';
import { LimitsFields } from './LimitsFields';
import { ModesFields } from './ModesFields';
import { PaceFields } from './PaceFields';
import { PriceTable } from './PriceTable';
import { ProviderSection, type ProviderSectionHandle } from './ProviderSection';
import { SavedAtOnceSections } from './SavedAtOnceSections';
import { SettingsError } from './SettingsError';
import { SettingsFooter } from './SettingsFooter';
import { withEffort } from './settingsForm';
import { useSettingsForm, type FieldGroupProps } from './useSettingsForm';
import './settings.css';

/**
 * The settings, in a modal dialog: the model provider, then the agent's
 * limits, what runs without asking, its instructions, the pace, and the
 * model table (prices, context lengths). One Save at the bottom saves
 * whatever of these changed, the provider first; the sections below them
 * save at once. Esc, × or a click outside asks before discarding changes.
 */
export function SettingsDialog({ onClose, section = null }: { onClose: () => void; section?: SettingsSection | null }) {
  const providerRef = useRef<ProviderSectionHandle>(null);
  const s = useSettingsForm(providerRef);
  const titleId = useId();
  const errorId = useId();
  const formId = useId();

  const requestClose = async () => {
    const discard =
      !s.unsaved() ||
      (await askConfirm({
        title: 'Discard your changes?',
        text: 'Some settings you changed are not saved.',
        confirmLabel: 'Discard',
        cancelLabel: 'Keep editing',
      }));
    if (discard) onClose();
  };

  const form = s.form;
  const group: FieldGroupProps | null = form && {
    form,
    edit: s.edit,
    bad: (field) => !!field && s.error?.field === field,
    errorId,
  };

  return (
    <Modal
      onClose={() => void requestClose()}
      labelledBy={titleId}
      initialFocus="dialog"
      className="settings-modal"
      backdropClassName="settings-backdrop"
    >
      <header className="settings-head">
        <h2 id={titleId} className="settings-title">
          Settings
        </h2>
        <button type="button" className="icon-btn settings-close" aria-label="Close" title="Close (Esc)" onClick={() => void requestClose()}>
          ×
        </button>
      </header>

      <div className="settings-scroll">
        <ProviderSection
          ref={providerRef}
          onSaved={s.onProviderSaved}
          onChanged={s.setProviderDirty}
          autoFocus={section === 'provider'}
          effort={
            form
              ? {
                  efforts: form.reasoningEffort,
                  onChange: (model, e) => s.edit((f) => ({ ...f, reasoningEffort: withEffort(f.reasoningEffort, model, e) })),
                }
              : undefined
          }
        />

        {!group ? (
          s.loadError ? (
            <SettingsError report={s.loadError} onRetry={() => s.load()} urgent className="settings-load-error">
              Could not load the settings: {s.loadError.message}
            </SettingsError>
          ) : (
            <p className="muted">Loading…</p>
          )
        ) : (
          <form
            id={formId}
            className="settings-form"
            noValidate
            onSubmit={(e) => {
              e.preventDefault();
              void s.save();
            }}
          >
            <LimitsFields {...group} />
            <ApprovalsFields {...group} />
            <InstructionsFields
              {...group}
              defaultPrompt={s.defaultPrompt}
              promptError={s.promptError}
              retry={() => void s.reloadPrompt()}
            />
            <ModesFields {...group} />
            <PaceFields {...group} timeouts={s.loaded?.modelFirstByteTimeoutSec !== undefined} />
            {group.form.checkpointLimitMb !== '' && <CheckpointsFields {...group} storedLimit={s.loaded?.checkpointLimitMb} />}
            <PriceTable {...group} />
          </form>
        )}
        <SavedAtOnceSections
          loaded={s.loaded}
          store={async (change) => {
            await s.store(change);
          }}
        />
      </div>

      <SettingsFooter
        error={s.error}
        errorId={errorId}
        saved={s.saved}
        dirty={s.dirty}
        saving={s.saving}
        formId={form ? formId : undefined}
        onSave={() => void s.save()}
      />
    </Modal>
  );
}

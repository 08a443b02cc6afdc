import { useAppStore } from '../../stores/app';

/**
 * Where the model provider and API key will be chosen (a later issue
 * replaces this section). For now it says which model answers and how to
 * change it.
 */
export function ProviderSection() {
  const model = useAppStore((s) => s.modelInfo);
  return (
    <fieldset className="settings-group">
      <legend>Model provider</legend>
      <p className="settings-help">
        {model
          ? model.demo
            ? "Errand is using its built-in offline demo model."
            : `Errand is using ${model.model || 'the configured model'}${model.baseUrl ? ` at ${model.baseUrl}` : ''}.`
          : 'Errand uses the model server it was started with.'}{' '}
        To use another model, set <code>OPENAI_BASE_URL</code>, <code>OPENAI_API_KEY</code> and{' '}
        <code>ERRAND_MODEL</code> and restart Errand.
      </p>
    </fieldset>
  );
}

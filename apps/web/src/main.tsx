import { validateWithoutEval } from '@yidu/shared';
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import './styles.css';
import { initI18n } from './i18n/index.ts';
import { App } from './app.tsx';

// Before any schema is checked (see browser-validation.ts).
validateWithoutEval();

const container = document.getElementById('root')!;

// Messages and the Ant Design locale of the chosen language are ready before the first paint.
void initI18n()
  .catch((error: unknown) => console.error('Could not load the interface language', error))
  .finally(() => {
    createRoot(container).render(
      <StrictMode>
        <App />
      </StrictMode>,
    );
  });

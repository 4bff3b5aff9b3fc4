import type { ReactNode } from 'react';

/** The button row under each wizard step: Previous on the left, Next / Complete on the right. */
export function WizardFooter({ back, children }: { back?: ReactNode; children?: ReactNode }) {
  return (
    <div className="yd-wizard-footer">
      <div>{back}</div>
      <div className="yd-wizard-footer-main">{children}</div>
    </div>
  );
}

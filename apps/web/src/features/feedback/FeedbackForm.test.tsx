import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { fireEvent, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { useAuth } from '../../stores/auth.ts';
import { fakeFetch, makeUser, ok, renderPage } from '../../test/utils.tsx';
import { feedbackImageProblem } from './imageRules.ts';
import { FeedbackForm } from './FeedbackForm.tsx';

const MB = 1024 * 1024;

beforeEach(() => useAuth.getState().setSession('t', makeUser()));
afterEach(() => {
  vi.unstubAllGlobals();
  useAuth.getState().clear();
});

describe('feedback images (SPEC §5.6)', () => {
  it('accept images up to 10 MB only', () => {
    expect(feedbackImageProblem({ type: 'image/png', name: 'a.png', size: 10 * MB })).toBeNull();
    expect(feedbackImageProblem({ type: 'image/jpeg', name: 'a.jpg', size: 10 * MB + 1 })).toBe('imageTooLarge');
    expect(feedbackImageProblem({ type: 'application/pdf', name: 'a.pdf', size: 10 })).toBe('notAnImage');
    expect(feedbackImageProblem({ type: '', name: 'shot.webp', size: 10 })).toBeNull();
  });
});

describe('the add-feedback form', () => {
  it('requires title and description, refuses a non-image, sends multipart', async () => {
    const { calls } = fakeFetch({
      'POST /api/feedback/add': ok({ id: 7, title: 'Crash', type: 'uiIssue', status: 'unresolved' }),
    });
    const onSent = vi.fn();
    renderPage(<FeedbackForm onSent={onSent} onCancel={() => {}} />);
    const user = userEvent.setup();
    await user.click(screen.getByRole('button', { name: 'Send' }));
    expect(await screen.findByText('Please enter a title')).toBeTruthy();
    expect(screen.getByText('Please describe the problem or suggestion')).toBeTruthy();

    // rc-upload renders a fresh input after each choice.
    const input = () => document.querySelector('input[type=file]') as HTMLInputElement;
    fireEvent.change(input(), { target: { files: [new File(['%PDF'], 'doc.pdf', { type: 'application/pdf' })] } });
    expect(await screen.findByText('Upload file must be an image!')).toBeTruthy();
    const big = new File([new Uint8Array(11 * MB)], 'big.png', { type: 'image/png' });
    fireEvent.change(input(), { target: { files: [big] } });
    expect(await screen.findByText('Image size cannot exceed 10MB!')).toBeTruthy();
    fireEvent.change(input(), { target: { files: [new File(['png'], 'shot.png', { type: 'image/png' })] } });
    await screen.findByText('shot.png');

    await user.type(screen.getByLabelText('Title'), 'Crash');
    await user.type(screen.getByLabelText('Detailed description'), 'It broke');
    await user.click(screen.getByRole('button', { name: 'Send' }));
    await waitFor(() => expect(onSent).toHaveBeenCalled());
    const body = calls.find((c) => c.path === '/api/feedback/add')!.body as FormData;
    expect(body.get('title')).toBe('Crash');
    expect(body.get('type')).toBe('systemBug');
    expect(body.get('description')).toBe('It broke');
    expect((body.get('image') as File).name).toBe('shot.png');
  });
});

import { FEEDBACK_IMAGE_MAX_BYTES } from '@yidu/shared/social';

export const FEEDBACK_IMAGE_ACCEPT = 'image/*';

/** SPEC §5.6: image files only, at most 10 MB. Returns the error key of errors.*, or null when fine. */
export function feedbackImageProblem(file: {
  type: string;
  name: string;
  size: number;
}): 'notAnImage' | 'imageTooLarge' | null {
  const byType = file.type ? file.type.startsWith('image/') : /\.(png|jpe?g|gif|webp|bmp|avif|heic)$/i.test(file.name);
  if (!byType) return 'notAnImage';
  if (file.size > FEEDBACK_IMAGE_MAX_BYTES) return 'imageTooLarge';
  return null;
}

import { describe, expect, it, vi } from 'vitest';
import { fireEvent, render } from '@testing-library/react';
import { inlineText, parseInline, renderInline } from './inlineMarkup.tsx';

const renderHtml = (html: string, options?: Parameters<typeof renderInline>[1]) =>
  render(<p data-testid="p">{renderInline(parseInline(html), options)}</p>).getByTestId('p');

describe('inline markup whitelist', () => {
  it('keeps the allowed inline tags', () => {
    const p = renderHtml(
      'A <em>b</em> <strong>c</strong><sup>1</sup> <ruby>漢<rp>(</rp><rt>kan</rt><rp>)</rp></ruby><br>d',
    );
    expect(p.querySelector('em')?.textContent).toBe('b');
    expect(p.querySelector('strong')?.textContent).toBe('c');
    expect(p.querySelector('sup')?.textContent).toBe('1');
    expect(p.querySelector('ruby rt')?.textContent).toBe('kan');
    expect(p.querySelector('br')).not.toBeNull();
  });

  it('renders scripts, handlers and javascript: links inert', () => {
    const html =
      'Safe <script>window.pwned = 1</script><img src=x onerror="window.pwned=2"><b onclick="window.pwned=3">bold</b>' +
      '<a href="javascript:window.pwned=4">link</a><a href="https://evil.example/">out</a><iframe src="x"></iframe>' +
      '<style>p{}</style><div class="x">div text</div>';
    const p = renderHtml(html);
    expect(p.querySelector('script, img, iframe, style, div')).toBeNull();
    expect(p.querySelectorAll('a')).toHaveLength(0);
    const bold = p.querySelector('b')!;
    expect(bold.getAttribute('onclick')).toBeNull();
    expect(p.innerHTML).not.toMatch(/onerror|onclick|javascript:|evil|pwned/);
    expect(p.textContent).toBe('Safe boldlinkoutdiv text');
    fireEvent.click(bold);
    expect((window as unknown as { pwned?: number }).pwned).toBeUndefined();
  });

  it('keeps in-page note links and reports their target instead of navigating', () => {
    const onLink = vi.fn();
    const p = renderHtml('See<a href="#c2-b9" onclick="alert(1)" style="color:red">1</a>.', { onLink });
    const link = p.querySelector('a')!;
    expect(link.getAttribute('href')).toBe('#c2-b9');
    expect(link.getAttribute('onclick')).toBeNull();
    expect(link.getAttribute('style')).toBeNull();
    fireEvent.click(link);
    expect(onLink).toHaveBeenCalledWith('c2-b9', link);
    expect(link.getAttribute('aria-haspopup')).toBe('dialog');
  });

  it('treats plain text as text, even when it looks like markup after decoding', () => {
    expect(inlineText(parseInline(null, 'a < b'))).toBe('a < b');
    const p = renderHtml('1 &lt;script&gt;alert(1)&lt;/script&gt;');
    expect(p.querySelector('script')).toBeNull();
    expect(p.textContent).toBe('1 <script>alert(1)</script>');
  });

  it('draws decorations across element boundaries by character offsets', () => {
    const p = renderHtml('Hello <em>brave</em> world', {
      decorations: [{ start: 3, end: 9, className: 'hl', id: 'm1' }],
    });
    const parts = [...p.querySelectorAll('.hl')].map((e) => e.textContent);
    expect(parts.join('')).toBe('lo bra');
    expect(p.textContent).toBe('Hello brave world');
    expect(p.querySelector('em .hl')?.textContent).toBe('bra');
  });
});

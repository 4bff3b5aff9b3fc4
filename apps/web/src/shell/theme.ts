import type { ThemeConfig } from 'antd';

/**
 * System fonts with CJK faces, so Chinese and Latin text both read well. A Latin face must come
 * before every CJK one on each system: a CJK font also has Latin letters, and draws ’ “ ” full
 * width ("Homer’ s"). Linux has none of the Apple and Windows faces, hence Noto Sans, Liberation
 * Sans and DejaVu Sans before the CJK fonts (they have no Han characters, which fall through).
 */
export const FONT_FAMILY = [
  '-apple-system',
  'BlinkMacSystemFont',
  '"Segoe UI"',
  'Roboto',
  '"Helvetica Neue"',
  'Arial',
  '"Noto Sans"',
  '"Liberation Sans"',
  '"DejaVu Sans"',
  '"PingFang SC"',
  '"Hiragino Sans GB"',
  '"Microsoft YaHei"',
  '"Noto Sans CJK SC"',
  '"Source Han Sans SC"',
  '"WenQuanYi Micro Hei"',
  '"Apple SD Gothic Neo"',
  '"Malgun Gothic"',
  'sans-serif',
].join(', ');

/** A calm, warm palette: a reading app rather than an admin panel. */
export const theme: ThemeConfig = {
  token: {
    colorPrimary: '#b4562f',
    colorLink: '#a34c27',
    colorBgLayout: '#f7f3ec',
    colorTextBase: '#2b2622',
    borderRadius: 8,
    fontFamily: FONT_FAMILY,
    fontSize: 15,
  },
  components: {
    Layout: { headerBg: '#fffdf9', headerPadding: '0 20px', headerHeight: 60, bodyBg: '#f7f3ec' },
    Menu: { itemBg: 'transparent', horizontalItemSelectedColor: '#b4562f' },
    Button: { primaryShadow: 'none' },
  },
};

import type { ThemeConfig } from 'antd';

/** System fonts with CJK faces, so Chinese and Latin text both read well. */
export const FONT_FAMILY = [
  '-apple-system',
  'BlinkMacSystemFont',
  '"Segoe UI"',
  'Roboto',
  '"Helvetica Neue"',
  'Arial',
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

import { useMemo } from 'react';
import { Select, type SelectProps } from 'antd';
import { useUiLanguage } from '../../i18n/index.ts';
import { readingLanguageOptions } from '../../i18n/languages.ts';

/** Picker for the 26 reading languages, named in the interface language (value: the English name). */
export function ReadingLanguageSelect(props: Omit<SelectProps<string>, 'options'>) {
  const uiLanguage = useUiLanguage((s) => s.language);
  const options = useMemo(
    () =>
      readingLanguageOptions(uiLanguage).map((l) => ({
        value: l.value,
        label: l.label,
        search: `${l.label} ${l.native} ${l.value} ${l.code}`.toLowerCase(),
        native: l.native,
        code: l.code === 'jp' ? 'ja' : l.code,
      })),
    [uiLanguage],
  );
  return (
    <Select<string>
      showSearch={{
        filterOption: (input, option) => Boolean(option?.search.includes(input.trim().toLowerCase())),
      }}
      options={options}
      optionRender={(option) => (
        <span className="yd-language-option">
          <span>{option.data.label}</span>
          {option.data.native !== option.data.label && (
            <span className="yd-language-native" lang={option.data.code}>
              {option.data.native}
            </span>
          )}
        </span>
      )}
      {...props}
    />
  );
}

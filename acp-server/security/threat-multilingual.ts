// "Ignore all previous instructions" in the languages users (and attackers) write most:
// German, French, Spanish, Italian, Portuguese, Russian, Chinese, Japanese, Korean. A hit
// needs all three parts close together: an override verb, a word for instructions or rules,
// and a word that points back at what came before ("previous", "all", "above"), so
// "ignoriere die Warnung" or "忽略 lint 规则" pass.
//
// Latin-script languages are matched on the folded view (lower case, accents off); Cyrillic
// and CJK on the text lower-cased only (folding maps Cyrillic lookalikes to Latin letters).

interface Language {
  verb: RegExp;
  noun: RegExp;
  back: RegExp;
}

const LATIN: Record<string, Language> = {
  de: { verb: /\b(?:ignorier\w*|vergiss\w*|vergessen|missacht\w*|uberseh\w*|verwirf\w*)/, noun: /\b(?:anweisung|instruktion|befehl|regel|vorgabe|richtlinie|anordnung)\w*/, back: /\b(?:vorherig|bisherig|vorig|obig|fruher|alle|vorangegangen|vorstehend)\w*/ },
  fr: { verb: /\b(?:ignore[rz]?|oublie[rz]?|neglige[rz]?|fais abstraction)\b/, noun: /\b(?:instructions?|consignes?|directives?|regles?|ordres?)\b/, back: /\b(?:precedente?s?|anterieure?s?|toutes|ci-dessus|prealables?)\b/ },
  es: { verb: /\b(?:ignora[rd]?|ignore[sn]?|olvida[rd]?|olvide[sn]?|omite|descarta|haz caso omiso)\b/, noun: /\b(?:instrucciones|indicaciones|reglas|ordenes|directrices)\b/, back: /\b(?:anteriores|previas|precedentes|todas|de arriba)\b/ },
  it: { verb: /\b(?:ignora(?:re)?|dimentica(?:re)?|trascura(?:re)?|non considerare)\b/, noun: /\b(?:istruzioni|regole|indicazioni|direttive|ordini)\b/, back: /\b(?:precedenti|tutte|anteriori|sopra)\b/ },
  pt: { verb: /\b(?:ignore|ignora[r]?|esqueca|esquecer|desconsidere|desconsiderar)\b/, noun: /\b(?:instrucoes|regras|orientacoes|ordens|diretrizes)\b/, back: /\b(?:anteriores|previas|todas|acima)\b/ },
};

const OTHER: Record<string, Language> = {
  ru: { verb: /(?:игнорир|проигнорир|забудь|забыть|не обращай|не учитывай|отбрось)/, noun: /(?:инструкци|указани|правил|команд|директив)/, back: /(?:предыдущ|прежн|все|вышеуказ|выше|ранее)/ },
  ja: { verb: /(?:無視|忘れ|従わない)/, noun: /(?:指示|命令|ルール|指令|プロンプト|設定)/, back: /(?:以前|前の|これまで|上記|すべて|全て|先の)/ },
  zh: { verb: /(?:忽略|忽視|忽视|无视|無視|不要理会|不要理會|忘记|忘記|忘掉|放弃|放棄)/, noun: /(?:指令|指示|说明|說明|规则|規則|提示|命令|设定|設定)/, back: /(?:之前|以前|先前|上面|上述|所有|全部|前面|此前)/ },
  ko: { verb: /(?:무시|잊어|잊고|따르지)/, noun: /(?:지시|명령|지침|규칙|프롬프트)/, back: /(?:이전|모든|위의|앞의|기존)/ },
};

const WINDOW = 80;

function matches(text: string, language: Language): boolean {
  const verb = new RegExp(language.verb.source, "g");
  for (let m = verb.exec(text); m !== null; m = verb.exec(text)) {
    const around = text.slice(Math.max(0, m.index - WINDOW), m.index + m[0].length + WINDOW);
    if (language.noun.test(around) && language.back.test(around)) return true;
    if (verb.lastIndex === m.index) verb.lastIndex++;
  }
  return false;
}

/** The language code when `folded` (foldText) or `lowered` (text.toLowerCase()) asks to ignore prior instructions. */
export function foreignOverride(folded: string, lowered: string): string | undefined {
  for (const [code, language] of Object.entries(LATIN)) if (matches(folded, language)) return code;
  // eslint-disable-next-line no-control-regex -- the range starts at NUL: "anything past Latin Extended-B"
  if (!/[^\x00-\u024f]/.test(lowered)) return undefined;
  for (const [code, language] of Object.entries(OTHER)) if (matches(lowered, language)) return code;
  return undefined;
}

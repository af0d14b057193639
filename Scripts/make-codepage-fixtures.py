#!/usr/bin/env python3
"""Writes short SRT files in legacy single-byte code pages (and in double-byte encodings that are
not read) to Tests/Fixtures/codepages (committed).

Usage: Scripts/make-codepage-fixtures.py [OUTDIR]

Each `NAME.srt` holds five cues of sentences written for these tests in one language, encoded
with Python's codec of that code page; `NAME.utf8.srt` is the same file in UTF-8, which the
tests compare the detected reading with. The file name says the language and the encoding
(`ru-koi8-r.srt`); `cjk-*.srt` are Shift-JIS, GB18030, Big5 and EUC-KR, which must stay refused.
Tricky cases: Czech with few accented letters, Bulgarian (other letter frequencies than
Russian), the same Russian text in windows-1251 and KOI8-R, Greek with a capital alpha with
tonos (the one letter windows-1253 and ISO-8859-7 place apart), and a UTF-8 file with one
windows-1251 cue (as joined files have).
The output is the same on every run.
"""
import os
import sys

TEXTS = {
    "pl": [
        "Nie wiem, co się stało.",
        "Może pójdziemy jutro na spacer?",
        "Zostań tutaj, zaraz wrócę.",
        "To była długa podróż, źle spałem.",
        "Dziękuję za wszystko, przyjacielu.",
    ],
    # Few accented letters, one č and one ř: the file reads the same in windows-1252 but for
    # those two.
    "cs-few": [
        "Ahoj, jak se mas?",
        "To je dobry napad, Petre.",
        "Kde je ted?",
        "Musime jit domu, je večer.",
        "Ještě ne, řekla.",
    ],
    "cs": [
        "Přišel jsem pozdě, omlouvám se.",
        "Co tady děláš? Čekám na tebe.",
        "Nemůžeš tomu věřit, že ne?",
        "Šťastnou cestu, uvidíme se zítra.",
        "Žádný problém, všechno je v pořádku.",
    ],
    "hu": [
        "Nem tudom, mi történt tegnap este.",
        "Gyere velem, megmutatom az utat.",
        "Ez a legszebb nap az életemben.",
        "Köszönöm, hogy eljöttél hozzánk.",
        "Őszintén szólva, félek egy kicsit.",
    ],
    "ru": [
        "Я не знаю, что произошло вчера.",
        "Пойдём со мной, я покажу тебе дорогу.",
        "Это был самый длинный день в моей жизни.",
        "Спасибо, что пришёл так быстро.",
        "Подожди здесь, я скоро вернусь.",
    ],
    "bg": [
        "Не знам какво се случи снощи.",
        "Ела с мен, ще ти покажа пътя.",
        "Това беше най-дългият ден в живота ми.",
        "Благодаря ти, че дойде толкова бързо.",
        "Чакай тук, ще се върна скоро.",
    ],
    "uk": [
        "Я не знаю, що сталося вчора ввечері.",
        "Ходімо зі мною, я покажу тобі дорогу.",
        "Це був найдовший день у моєму житті.",
        "Дякую, що ти прийшов так швидко.",
        "Почекай тут, я скоро повернуся.",
    ],
    "sr": [
        "Не знам шта се десило синоћ.",
        "Хајде са мном, показаћу ти пут.",
        "То је био најдужи дан у мом животу.",
        "Хвала ти што си дошао тако брзо.",
        "Чекај овде, враћам се ускоро.",
    ],
    "el": [
        "Άκου, δεν ξέρω τι έγινε χθες το βράδυ.",
        "Έλα μαζί μου, θα σου δείξω τον δρόμο.",
        "Ήταν η πιο μεγάλη μέρα της ζωής μου.",
        "Ευχαριστώ που ήρθες τόσο γρήγορα.",
        "Περίμενε εδώ, θα γυρίσω σύντομα.",
    ],
    "tr": [
        "Dün gece ne olduğunu bilmiyorum.",
        "Benimle gel, sana yolu göstereceğim.",
        "Hayatımın en uzun günüydü bu.",
        "Bu kadar çabuk geldiğin için teşekkürler.",
        "Burada bekle, hemen döneceğim.",
    ],
    "fr": [
        "Je ne sais pas ce qui s'est passé hier soir.",
        "Viens avec moi, je vais te montrer le chemin.",
        "C'était le plus long jour de ma vie.",
        "Merci d'être venu si vite, ça me touche.",
        "Attends ici, je reviens tout de suite.",
    ],
    "ja": [
        "昨日の夜に何があったのか分かりません。",
        "一緒に来て、道を教えてあげる。",
        "人生で一番長い一日だった。",
        "すぐに来てくれてありがとう。",
        "ここで待って、すぐ戻るから。",
    ],
    "zh": [
        "我不知道昨天晚上发生了什么。",
        "跟我来，我给你指路。",
        "这是我一生中最漫长的一天。",
        "谢谢你这么快就来了。",
        "在这里等着，我马上回来。",
    ],
    "zh-tw": [
        "我不知道昨天晚上發生了什麼。",
        "跟我來，我給你指路。",
        "這是我一生中最漫長的一天。",
        "謝謝你這麼快就來了。",
        "在這裡等著，我馬上回來。",
    ],
    "ko": [
        "어젯밤에 무슨 일이 있었는지 모르겠어요.",
        "나랑 같이 가자, 길을 알려 줄게.",
        "내 인생에서 가장 긴 하루였어.",
        "이렇게 빨리 와 줘서 고마워.",
        "여기서 기다려, 금방 돌아올게.",
    ],
}

FILES = [
    # (file name, language, codec)
    ("pl-windows-1250", "pl", "cp1250"),
    ("cs-few-windows-1250", "cs-few", "cp1250"),
    ("cs-iso-8859-2", "cs", "iso8859_2"),
    ("hu-windows-1250", "hu", "cp1250"),
    ("ru-windows-1251", "ru", "cp1251"),
    ("ru-koi8-r", "ru", "koi8_r"),
    ("bg-windows-1251", "bg", "cp1251"),
    ("uk-windows-1251", "uk", "cp1251"),
    ("sr-windows-1251", "sr", "cp1251"),
    ("el-windows-1253", "el", "cp1253"),
    ("el-iso-8859-7", "el", "iso8859_7"),
    ("tr-windows-1254", "tr", "cp1254"),
    ("fr-windows-1252", "fr", "cp1252"),
    ("cjk-shift-jis", "ja", "shift_jis"),
    ("cjk-gb18030", "zh", "gb18030"),
    ("cjk-big5", "zh-tw", "big5"),
    ("cjk-euc-kr", "ko", "euc_kr"),
]


def srt(lines):
    out = []
    for i, text in enumerate(lines):
        start = 1 + 3 * i
        out.append(f"{i + 1}\r\n00:00:{start:02d},000 --> 00:00:{start + 2:02d},500\r\n{text}\r\n")
    return "\r\n".join(out)


def main():
    here = os.path.dirname(os.path.abspath(__file__))
    out = sys.argv[1] if len(sys.argv) > 1 else os.path.join(here, "..", "Tests", "Fixtures", "codepages")
    os.makedirs(out, exist_ok=True)
    for name, language, codec in FILES:
        text = srt(TEXTS[language])
        with open(os.path.join(out, name + ".srt"), "wb") as f:
            f.write(text.encode(codec))
        with open(os.path.join(out, name + ".utf8.srt"), "wb") as f:
            f.write(text.encode("utf-8"))
    # A UTF-8 file with one cue in windows-1251 (two files joined, or a line edited in an ANSI
    # editor): the UTF-8 stays UTF-8, the cue reads as windows-1251.
    cues = TEXTS["ru"]
    joined = srt(cues[:4]).encode("utf-8") + b"\r\n" + srt([cues[4]]).replace("1\r\n", "5\r\n", 1)\
        .replace("00:00:01,000 --> 00:00:03,500", "00:00:13,000 --> 00:00:15,500").encode("cp1251")
    with open(os.path.join(out, "ru-utf8-with-windows-1251-cue.srt"), "wb") as f:
        f.write(joined)
    with open(os.path.join(out, "ru-utf8-with-windows-1251-cue.utf8.srt"), "wb") as f:
        f.write(joined[: len(srt(cues[:4]).encode("utf-8")) + 2] + srt([cues[4]]).replace("1\r\n", "5\r\n", 1)
                .replace("00:00:01,000 --> 00:00:03,500", "00:00:13,000 --> 00:00:15,500").encode("utf-8"))


if __name__ == "__main__":
    main()

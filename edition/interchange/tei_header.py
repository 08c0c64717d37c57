"""The TEI header (title, responsibility, witnesses by family, what is normalised and what every @type and
@cause means) and the register as ``standOff``."""

from __future__ import annotations

from typing import Any

from lxml import etree

from ..engine.exported import FamilyJson, WitnessJson
from .tei_xml import TEI, XML_LANG, append, sub

CLASS_WORDS = {
    "punctuation": "標點之異",
    "orthographic": "異體：同一字的不同寫法",
    "substantive": "異文",
    "addition": "增文：底本所無",
    "omission": "脫文：底本所有而此本無",
    "person": "人物之異（不同本系）",
    "place": "地名之異（不同本系）",
    "thing": "名物之異（不同本系）",
    "number": "數目之異（不同本系）",
    "date": "日期之異（不同本系）",
    "lacuna": "闕文",
    "editor": "編者按",
}
CAUSES = {
    "quote-style": "引號體式之異（“”／「」），本系之內不出校",
    "script": "繁簡字體之異，成員字體不同的本系之內不出校",
    "unpunctuated": "與無標點傳本相較的標點之異，不出校",
    "silenced": "編者以 silent: 略去的類別",
    "unnoted": "對齊所見而未出校的其他差異",
}
READING_TYPES = {
    "spanning": "此本此格向下跨越數行",
    "spanned": "此本此行的文字在上方跨行的格中（ptr 指向之）",
    "absent": "此本不講此刻",
    "layout": "只是空白（換行、空格）之異",
}
SCRIPT_LANG = {"Hant": "zh-Hant", "Hans": "zh-Hans", "mixed": "zh"}
SCRIPT_WORDS = {"Hant": "繁體", "Hans": "簡體", "mixed": "繁簡混用"}


def header(b: Any) -> etree._Element:
    x = b.x
    hdr = etree.Element(TEI + "teiHeader")
    hdr.set(XML_LANG, "zh-Hant")
    fd = sub(hdr, "fileDesc")
    ts = sub(fd, "titleStmt")
    sub(ts, "title", b.title)
    rs = sub(ts, "respStmt", xml_id=b.ids.make("editor"))
    sub(
        rs,
        "resp",
        '編者：段落、行、校記的審定，編者按（note type="editor" resp="#editor"），'
        '判斷（note type="verdict" resp="#editor"；所從之 lem/rdg 帶 resp="#editor"）',
    )
    sub(rs, "name", f"{b.title}編者")
    rs = sub(ts, "respStmt")
    sub(rs, "resp", "分段、對齊、校記（機器生成）")
    sub(rs, "name", "edition（python -m edition export --format tei）")
    ps = sub(fd, "publicationStmt")
    p = sub(ps, "p", f"由 {x['format']} 匯出資料生成；與 edition.json 同時發佈")
    if b.url:
        append(p, "：")
        sub(p, "ptr", target=b.url)
    append(p, "。")
    sd = sub(fd, "sourceDesc")
    lw = sub(sd, "listWit")
    sub(lw, "head", "傳本")
    wits = {w["siglum"]: w for w in x["witnesses"]}
    for fam in b.families:
        fl = sub(lw, "listWit", xml_id=b.ids.make(f"family.{b.wit[fam['id']]}"), n=fam["id"])
        sub(fl, "head", f"本系 {fam['id']}")
        how = "由目錄指定" if fam["declared"] else "由程式發現"
        sub(fl, "desc", f"同一文本的抄本（{how}）；底本 {fam['base']}，校記以之為 lem。")
        for s in fam["members"]:
            if s in wits:
                witness(b, fl, wits[s], fam)
    enc = sub(hdr, "encodingDesc")
    pd = sub(enc, "projectDesc")
    sub(
        pd,
        "p",
        '同一故事諸傳本的平行校本：段落（div type="episode"）中每一行（ab type="row"）是敘事的同一時刻，'
        "各本系在此時刻的讀法並列於 app 中。",
    )
    ed = sub(enc, "editorialDecl")
    norm = sub(ed, "normalization")
    nm = x["normalised"]
    sub(
        norm,
        "p",
        "文字照錄，不作任何正規化：每個傳本的每個字元（含換行、空格）恰在一處出現——行中的 seg，"
        '或傳本部分（div type="witness"）的 ab type="witness-order" 中。以下差異比較時統一處理，不出校，'
        "在同一讀法中以嵌套的 app 標出（@cause）：",
    )
    sub(norm, "p", f'引號體式（“”／「」）：本系之內 {nm["quote_styles"]} 處（@cause="quote-style"）。')
    unp = "、".join(nm["unpunctuated"]) or "無"
    sub(norm, "p", f'無標點的傳本：{unp}；與之相較的標點之異不出校（@cause="unpunctuated"）。')
    scr = "、".join(nm["scripts"]) or "無"
    sub(norm, "p", f'成員字體不同的本系：{scr}；繁簡轉換之異不出校（@cause="script"）。')
    sil = "、".join(f"{k} {v} 條" for k, v in nm["silenced"].items()) or "無"
    sub(norm, "p", f'編者略去的校記類別（@cause="silenced"）：{sil}。')
    seg = sub(ed, "segmentation")
    sub(
        seg,
        "p",
        "行中每段傳本文字是一個 seg（xml:id）；傳本部分以 ptr 依傳本原來的次序指向它們，其間的空白與段落外文字"
        '（seg type="unassigned"）照錄。seg type="moved"：此本把這段文字講在別處，@corresp 指向其原來的位置。'
        "讀回一本：依次讀其傳本部分，循 ptr 讀所指的 seg，每個 app 取 @wit 含此本的 lem 或 rdg，略去 note。",
    )
    interp = sub(ed, "interpretation")
    directives = "、".join(f"{k} {v} 條" for k, v in x["editorial"].items()) or "無"
    sub(interp, "p", f"編者文件（editorial.yaml）中生效的指令：{directives}。")
    sub(
        interp,
        "p",
        "校記：本系之內的異文為嵌套的 app（@type 為類別，@n 為校記 id）；不同本系之間同一事實的不同說法為 "
        'note type="fact"（@subtype 為種類）；闕文為 lacunaStart／lacunaEnd 與 note type="lacuna"；'
        '編者按為 note type="editor"；編者的判斷為 note type="verdict"（@subtype：adopt 據某本改、suspect 疑當作某、'
        'undecided 未知孰是、doubt 存疑、parallel 他校；@n 為所判校記的 id），所從的讀法 resp="#editor"。'
        "程式的事實校記為編者所記事實取代者（匯出文件中 superseded_by）不收。類別見 classDecl。",
    )
    sub(enc, "variantEncoding", method="parallel-segmentation", location="internal")
    cd = sub(enc, "classDecl")
    taxonomy(b, cd, "note-classes", "校記類別（lem/rdg/app 的 @type，note 的 @subtype）", CLASS_WORDS)
    taxonomy(b, cd, "causes", "不出校之異的原因（rdg 的 @cause）", CAUSES)
    taxonomy(b, cd, "reading-types", "行的讀法的其他 @type", READING_TYPES)
    etree.indent(hdr, space=" ", level=1)
    hdr.tail = "\n"
    return hdr


def taxonomy(b: Any, parent: etree._Element, name: str, gloss: str, items: dict[str, str]) -> None:
    tx = sub(parent, "taxonomy", xml_id=b.ids.make(name))
    sub(tx, "desc", gloss)
    for key, words in items.items():
        cat = sub(tx, "category", xml_id=b.ids.make(f"{name}.{key}"), n=key)
        sub(cat, "catDesc", f"{key}：{words}")


def witness(b: Any, parent: etree._Element, w: WitnessJson, fam: FamilyJson) -> None:
    el = sub(parent, "witness", xml_id=b.wit[w["siglum"]], n=w["siglum"])
    sub(el, "abbr", w["siglum"], type="siglum")
    bibl = sub(el, "bibl")
    sub(bibl, "title", w["title"] or w["siglum"])
    sub(bibl, "idno", w["file"], type="file")
    ext = sub(bibl, "extent")
    sub(ext, "measure", f"{w['length']} 字元", unit="char", quantity=str(w["length"]))
    sub(bibl, "textLang", SCRIPT_WORDS.get(w["script"], w["script"]), mainLang=SCRIPT_LANG.get(w["script"], "zh"))
    if w["source"]:
        sub(bibl, "note", w["source"], type="source")
    role = "底本" if fam["base"] == w["siglum"] else "抄本"
    sub(el, "note", f"本系 {fam['id']}（{role}）", type="family", target="#" + b.wit[fam["base"]])
    if w["description"]:
        sub(el, "note", w["description"], type="description")


def standoff(b: Any) -> etree._Element | None:
    reg = b.x["register"]
    if not reg:
        return None
    so = etree.Element(TEI + "standOff")
    lists = {
        "person": (sub(so, "listPerson"), "person", "persName"),
        "place": (sub(so, "listPlace"), "place", "placeName"),
        "thing": (sub(so, "listObject"), "object", "objectName"),
    }
    for e in reg:
        lst, tag, name_tag = lists[e["kind"]]
        el = sub(lst, tag, xml_id=b.reg_id[e["id"]])
        holder = sub(el, "objectIdentifier") if tag == "object" else el
        sub(holder, name_tag, e["name"])
        for kind in ("aliases", "variants", "titles"):
            for alias in e[kind]:
                if alias != e["name"]:
                    sub(holder, name_tag, alias, type=kind[:-1] if kind != "aliases" else "alias")
        if e["note"]:
            sub(el, "note", e["note"])
    for lst, _tag, _name in lists.values():
        if not len(lst):
            so.remove(lst)
    etree.indent(so, space=" ", level=1)
    so.tail = "\n"
    return so

"""`zhen glossary suggest` candidates: evidence ranking, recurring-term statistics,
dictionary guesses (text written for these tests, in a textbook style)."""

from __future__ import annotations

from pathlib import Path

from zhenglossary.checks import NoteText
from zhenglossary.glossary import Glossary, load_glossary_text
from zhenglossary.prose import prose_view
from zhenglossary.suggest import dictionary_guess, log_likelihood, suggest, to_yaml

CHAPTER_A = """\
# 序列建模

接下来，我们讨论字符级语言模型。字符级语言模型把文本看成字符序列，读者可以把它和词级模型对比。
事实上，字符级语言模型的词表很小。也就是说，字符级语言模型的输入层很轻。
简而言之，字符级语言模型适合拼写多变的文本。请参阅上一节的代码。

我们先做1步预测，再做2步预测，最后做16步预测；k步预测的误差会累积。
单步预测比多步预测稳定，多步预测需要把预测值当作输入，所以多步预测的误差更大。

*困惑度*（perplexity）衡量字符级语言模型的质量，困惑度越低越好。困惑度的对数就是交叉熵。
在验证集上，困惑度在第三轮之后不再下降。

## 小结

接下来，读者会看到更长的序列。事实上，困惑度还会继续下降。
"""

CHAPTER_B = """\
# 训练技巧

接下来，我们用字符级语言模型做实验。读者会发现困惑度（perplexity）随训练下降。
事实上，困惑度对学习率很敏感。也就是说，困惑度可以用来挑选学习率。
简而言之，要盯住困惑度。请参阅附录里的脚本。

一个例子是缓存（如 Redis 中的键）。我们的数据来自某个代码仓库（repository），只出现这一次。
我们同样比较1步预测和8步预测，k步预测仍然更难。训练多步预测模型时，多步预测的损失要分开看。

## 小结

接下来，读者可以尝试字符级语言模型的变体。也就是说，困惑度不是唯一的指标。
"""


def notes(*texts: str) -> list[NoteText]:
    return [NoteText(Path(f"n{i}.md"), f"notes/n{i}.md", text, prose_view(text))
            for i, text in enumerate(texts)]


def test_recurring_terms_are_kept_and_discourse_and_fragments_are_dropped():
    found = {s.zh: s for s in suggest(Glossary([]), notes(CHAPTER_A, CHAPTER_B))}
    assert "字符级语言模型" in found and found["字符级语言模型"].source == "recurring"
    assert "多步预测" in found
    for phrase in ("接下来", "事实上", "也就是说", "简而言之", "请参阅", "读者", "小结"):
        assert phrase not in found, phrase                 # discourse, headings, readers
    for fragment in ("字符级语言", "步预测", "语言模型"):
        assert fragment not in found, fragment             # pieces of a longer term


def test_parenthetical_groups_forms_and_keeps_the_seen_english():
    found = {s.zh: s for s in suggest(Glossary([]), notes(CHAPTER_A, CHAPTER_B))}
    ppl = found["困惑度"]
    assert (ppl.en, ppl.source, ppl.count) == ("perplexity", "parenthetical", 2)
    assert ppl.files == ["notes/n0.md", "notes/n1.md"]
    assert ppl.occurrences >= 10


def test_ranking_is_by_evidence_not_by_source():
    ranked = [s.zh for s in suggest(Glossary([]), notes(CHAPTER_A, CHAPTER_B))]
    # a term used everywhere outranks a one-off parenthetical about an example
    assert ranked.index("字符级语言模型") < ranked.index("代码仓库")
    assert ranked[0] in ("困惑度", "字符级语言模型")


def test_dictionary_guess_is_marked_and_never_the_entry():
    found = {s.zh: s for s in suggest(Glossary([]), notes(CHAPTER_A, CHAPTER_B))}
    guess = found["多步预测"]
    # no English of the notes agrees with a reading of 多 + 步 + 预测: no guess at all
    assert guess.en == "" and guess.en_guess == ""
    guess.en_guess = "multi-step prediction"
    text = to_yaml([guess])
    assert "en: ''" in text and "CC-CEDICT dictionary guess" in text
    assert dictionary_guess("梯度") == "gradient"          # one sense, a noun


def test_glossary_terms_are_not_suggested_again():
    glossary = load_glossary_text("source: zh\ntarget: en\nterms:\n"
                                  "  - zh: 困惑度\n    en: perplexity\n")
    found = {s.zh for s in suggest(glossary, notes(CHAPTER_A, CHAPTER_B))}
    assert "困惑度" not in found and "字符级语言模型" in found


def test_log_likelihood_sign_and_size():
    assert log_likelihood(50, 10_000, 300, 60_000_000) > 15.13     # a term of the notes
    assert log_likelihood(2, 10_000, 3_000, 60_000_000) < 15.13    # a general word
    assert log_likelihood(1, 10_000, 60_000, 60_000_000) < 0       # rarer than usual


# ------------------------------------------------------------------ issue 22: round two

CLUSTER = """\
# 集群

登录节点只用来提交作业，计算节点负责运行作业。每个计算节点有 8 块 GPU，登录节点没有 GPU。
作业提交后，调度器把它放到空闲的计算节点上；节点之间用高速网络相连。节点故障时作业会重新排队。
一个节点上可以跑多个作业，节点的内存由这些作业共享。我们为每个节点配置了本地磁盘。
在图算法里，节点（vertices）之间的边代表依赖，但这只是本文的一个例子。
"""


def test_a_parenthetical_against_the_dominant_use_comes_with_a_warning():
    glossary = load_glossary_text(
        "source: zh\ntarget: en\nterms:\n  - zh: 登录节点\n    en: login node\n"
        "  - zh: 计算节点\n    en: compute node\n")
    [node] = [s for s in suggest(glossary, notes(CLUSTER)) if s.zh == "节点"]
    assert node.en == "vertex"
    assert any("render it 'node'" in w and "登录节点" in w for w in node.warnings)
    assert any("used" in e and "more time(s)" in e for e in node.evidence)
    text = to_yaml([node])
    assert "# WARNING: the notes' parenthetical says 'vertex'" in text
    # evidence against it halves its rank
    from zhenglossary.suggest import evidence_score

    full = evidence_score(node.occurrences, len(node.files), 0.5 + 0.5 * node.alignment)
    assert abs(node.score - full / 2) < 1e-9
    # with no glossary, the many other uses are the evidence against it
    bare = [s for s in suggest(Glossary([]), notes(CLUSTER)) if s.zh == "节点"][0]
    assert bare.warnings and bare.warnings[0].startswith("one rendering from 1 parenthetical")


def test_dictionary_guess_only_where_the_notes_english_agrees():
    from collections import Counter

    from zhenglossary.suggest import notes_english

    english = notes_english(notes("# 算法\n\nThe algorithm uses a sparse matrix.\n"))
    assert dictionary_guess("算法", english) == "algorithm"           # not "arithmetic"
    assert dictionary_guess("矩阵", english) == "matrix"              # not "array"
    assert dictionary_guess("算法", Counter()) == ""                   # several senses: none
    assert dictionary_guess("子图", english) == ""                     # no "son diagram"


def test_document_parts_and_fragments_are_never_candidates():
    text = ("# 调度\n\n## 小结\n\n本章讨论了长期优化和后期优化。调度器的长期优化很重要，后期优化也很重要。"
            "预期优化有时失败。\n\n## 示例\n\n示例：一个调度器。另一个示例是回填队列。回填队列让小作业先运行。"
            "我们把回填队列放在内存里。\n\n## 章节安排\n\n章节安排如下。回填队列的长度有限。小结（Summary）"
            "之后是相关工作（Related Work）。\n")
    found = {s.zh for s in suggest(Glossary([]), notes(text, text))}
    assert "回填队列" in found
    assert not found & {"小结", "示例", "章节", "章节安排", "期优化", "相关工作"}


# ------------------------------------------------------- issue 22, round six: the finder

def _found(text: str) -> dict[str, object]:
    from zhenglossary.bilingual import find_parentheticals

    return {p.zh: p for p in find_parentheticals(prose_view(text), source=text)}


def test_a_latin_word_the_english_opens_with_is_inside_the_term():
    # robotics, databases, physics, materials: the Latin word is written in both
    assert "Kalman 滤波器" in _found("状态由 Kalman 滤波器（Kalman filter）估计。")
    assert "LSM 树" in _found("写入先进入基于 LSM 树（LSM-tree）的存储引擎。")
    assert "X射线衍射" in _found("样品用X射线衍射（X-ray diffraction）表征。")
    # a Latin word the English does not open with stays outside (a variable, a name)
    assert "变量" in _found("令 x 变量（latent variable）服从正态分布。")
    assert "集群" in _found("作业提交到 Slurm 集群（cluster）上。")
    # round seven, metrology and fluid dynamics: a name of two words the English opens with
    assert "Monte Carlo 模拟" in _found("采用 Monte Carlo 模拟（Monte Carlo simulation）估计不确定度。")
    assert "Navier Stokes 方程" in _found("我们用 Navier Stokes 方程（Navier Stokes equations）描述流动。")
    # ecology: a hyphen before the Chinese, an en dash in the English
    assert "Lotka-Volterra 方程" in _found("采用 Lotka-Volterra 方程（Lotka–Volterra equations）。")


def test_a_quantitys_symbol_after_its_english_is_no_second_term():
    # thermodynamics, soil science, polymers: the writer gives the symbol too
    found = _found("吉布斯自由能（Gibbs free energy, ΔG）决定反应方向；土壤含水率（soil water content，θ）随深度变化。")
    assert found["吉布斯自由能"].english == "Gibbs free energy"
    assert "土壤含水率" in found
    par = _found("玻璃化转变温度（glass transition temperature, Tg）在 105 °C 附近。")["玻璃化转变温度"]
    assert par.english == "glass transition temperature" and par.abbr == ""
    # the symbol says a quantity: a Title-Cased English beside it is no product name
    assert "比热容" in _found("## 比热容（Specific Heat Capacity, cp）")
    # an abbreviation stays one, and a list of two names is still no term
    assert _found("平均故障间隔（mean time between failures, MTBF）")["平均故障间隔"].abbr == "MTBF"
    assert not _found("框架（PyTorch, Go）")


def test_an_english_prefix_before_a_known_word_is_no_variable():
    # econometrics, epidemiology: co + a known word is a word the dictionaries lack
    assert _found("两个序列之间存在协整（cointegration）关系。")["协整"].english == "cointegration"
    assert "共感染" in _found("病人出现了共感染（coinfection）。")
    # a letter before a known word is still a variable, not a term
    assert not _found("等待时间（twait）超过阈值时报警。")


def test_half_spells_the_50_of_an_abbreviation():
    # pharmacology, toxicology: 半数 is the 50 of IC50 and LD50
    assert "半数抑制浓度" in _found("化合物的半数抑制浓度（IC50）低于 10 nM。")
    assert "半数致死量" in _found("该农药对大鼠的半数致死量（LD50）大于 2000 mg/kg。")


def test_letters_of_a_compound_english_word_do_not_leave_letters_to_the_clause():
    # chemistry, medicine: HS of *headspace*, and 并用 (jieba's word) spells no S
    assert "顶空固相微萃取" in _found("样品经过滤后并用顶空固相微萃取（headspace solid-phase microextraction，HS-SPME）富集。")
    from zhenglossary.bilingual import _letter_words

    assert _letter_words("HSSPME", ("headspace", "solid", "phase", "microextraction")) \
        == (0, 0, 1, 2, 3, 3)
    assert _letter_words("IOP", ("intraocular", "pressure")) == (0, 0, 1)
    assert _letter_words("ABC", ("alpha", "beta")) == (0, 1, None)     # not the initials


def test_a_noun_character_jieba_cut_off_before_a_one_character_term_is_the_terms():
    # zoology, phonology: 蛙|卵 *spawn*, 韵|核 *nucleus*, one English word, one character
    assert "蛙卵" in _found("春季池塘中的蛙卵（spawn）在一周内孵化。")
    assert "韵核" in _found("一个音节的韵核（nucleus）通常是元音。")
    # not across 的, a measure word or a verb: the one character alone is the term where
    # its gloss says the English (锁 "lock"), or where jieba tags it a noun after a count
    # (核: CC-CEDICT has no "core"; the independent gold sets label it a term)
    assert set(_found("每个分区的锁（lock）由协调者分配。")) == {"锁"}
    assert set(_found("每个核（core）运行一个线程。")) == {"核"}


def test_a_preposition_character_saying_a_word_after_a_hyphen_is_content():
    # traffic, power electronics: 跟 *to follow*, tagged a preposition, says *-following*
    assert "跟车策略" in _found("自动驾驶车辆采用跟车策略（car-following strategy）。")
    assert "跟网型逆变器" in _found("这是一台跟网型逆变器（grid-following inverter）。")


def test_a_function_character_between_two_spelling_words_spells_the_letter_between():
    # time series, finance: 自 (tagged a preposition) is the A of *auto-* between 向量 V
    # and 回归 R, between 广义 G and 回归 R
    assert "向量自回归移动平均模型" in _found("我们拟合了向量自回归移动平均模型（VARMA）。")
    assert "广义自回归条件异方差模型" in _found("市场波动用广义自回归条件异方差模型（GARCH）建模。")


def test_a_latin_species_name_is_headed_by_its_genus_and_its_epithet_said_before():
    # microbiology, zoology: the Chinese says the epithet before the genus
    assert "枯草芽孢杆菌" in _found("我们培养了枯草芽孢杆菌（Bacillus subtilis）。")
    par = _found("秀丽隐杆线虫（Caenorhabditis elegans）是常用的模式生物。")["秀丽隐杆线虫"]
    assert par.english == "Caenorhabditis elegans"          # the epithet is not a plural
    assert "小鼠" in _found("我们在小鼠（Mus musculus）身上验证。")


# ----------------------------------------------------- issue 22, round seven: the finder

def test_an_english_phrase_opening_its_clause_is_all_of_the_english_first():
    # metallurgy, linguistics, textiles: nothing aligns, but the phrase opens the
    # sentence, the list item or the table cell, so the whole phrase is the English
    par = _found("Widmanstatten structure（魏氏组织）使韧性下降。")["魏氏组织"]
    assert par.english.lower() == "widmanstatten structure" and par.form == "en-first"
    assert "马氏体" in _found("- Martensite laths（马氏体）在回火后分解")
    assert "捻度" in _found("| Twist level（捻度） | 800 T/m |")
    # a cell opens like a sentence: its capital is the sentence's, not a name's
    assert _found("| Dropout rate（丢弃率） | 0.1 |")["丢弃率"].english == "dropout rate"
    # not inside a sentence, not a name or abbreviation, not a general word or a remark
    assert not _found("我们观察到 twist level（捻度）变化。")
    assert not _found("Sometimes it fails（有时）, 需要重试。")
    assert not _found("Twist level（见第三节的讨论和图表）")
    assert not _found("We use PyTorch（一种框架）。")
    # hydraulics: where only its last word aligns (跃 *jump*), the opening phrase is still
    # all of the English; a phrase opening with a verb is the clause's
    assert _found("Hydraulic jump（水跃）发生在陡坡与缓坡交界处。")["水跃"].english == "hydraulic jump"
    assert _found("Using trellises（棚架）可以提高产量。")["棚架"].english == "trellis"


def test_a_measure_word_after_digits_is_the_counts_not_the_terms():
    # forestry, computability: 株 and 台 are CC-CEDICT classifiers after a number
    assert "红松" in _found("样地内共有 35 株红松（Korean pine）。")
    assert "图灵机" in _found("考虑 3 台图灵机（Turing machines）。")
    # geotechnics: jieba glues the classifier to the term (支测|斜仪); read again without it
    assert "测斜仪" in _found("钻孔中布设了 4 支测斜仪（inclinometers）。")
    # kept where it says the English (层 *layer*), or where no number stands before it
    assert "层感知机" in _found("系统包含 3 层感知机（three-layer perceptron）。")
    from zhenglossary.align import is_classifier

    assert is_classifier("株") and is_classifier("个") and not is_classifier("类")


def test_the_chinese_after_a_latin_head_and_a_prefix_before_it_are_the_terms():
    # oncology: the English opens with p53, so the content words up to the parenthesis
    # are the term's even where 抑 aligns to nothing
    assert "p53 抑癌基因" in _found("p53 抑癌基因（p53 tumor suppressor）发生突变。")
    # immunology, federated learning: 抗 says *anti-*, 非 says *non-* before the Latin word
    assert "抗 TNF 单抗" in _found("患者改用抗 TNF 单抗（anti-TNF antibodies）治疗。")
    assert "抗 CD3 抗体" in _found("样品经抗 CD3 抗体（anti-CD3 antibody）刺激。")
    assert "非 IID 划分" in _found("采用非 IID 划分（non-IID partition）。")
    # a verb between the Latin word and the term stays out
    assert "解析器" in _found("用 Python 编写解析器（Python parser）。")


def test_a_verbal_noun_cedict_reads_only_as_a_verb_ends_the_clause_where_nothing_aligns():
    # paediatrics: jieba tags 筛查 vn, but CC-CEDICT has only "to screen"
    assert "苯丙酮尿症" in _found("新生儿需要筛查苯丙酮尿症（phenylketonuria）。")
    from zhenglossary.align import gloss

    assert gloss("筛查").verb_only and not gloss("检测").verb_only    # 检测 is also *testing*


def test_a_suffix_character_says_the_word_after_the_hyphen_its_left_neighbour_says():
    # epidemiology, labour economics, databases: 别 (CC-CEDICT: "(noun suffix)
    # category", tagged a pronoun) is the *-specific* after the word 年龄/死因/行业 says
    assert "死因别死亡率" in _found("我们计算了死因别死亡率（cause-specific mortality）。")
    assert "行业别工资" in _found("各地区的行业别工资（industry-specific wages）差异很大。")
    assert "用户别配额" in _found("数据库的用户别配额（user-specific quotas）由管理员设定。")
    # not without the hyphen: the pronoun stays a clause's word
    assert "配额" in _found("管理员为每个用户设定了别的配额（quotas）。")


def test_a_one_character_term_standing_alone_as_an_item_or_cell_is_a_term():
    # botany, chemistry: the character says its one English word whole (CC-CEDICT)
    assert "萼" in _found("| 部位 | 萼（calyx） | 花冠（corolla） |")
    assert "钍" in _found("矿物中常见的有铀、钍（thorium）和钾。")
    # not a general word (锁 *lock*) opening a clause as its subject; after a count a noun
    # character is the term, not the count's (每个|核 *core*)
    assert set(_found("每个核（core）运行一个线程。")) == {"核"}
    assert not _found("，锁（lock）由协调者分配。")


def test_a_bound_character_jieba_cut_off_joins_a_one_character_span_where_nothing_aligns():
    # metallurgy: CC-CEDICT lacks 孪晶, jieba cuts 孪 (a bound morpheme, zg) | 晶
    assert "孪晶" in _found("退火后的铜中出现大量孪晶（twinning）。")
    # a general character or a measure word is no such half (个 of 每个核)
    assert set(_found("每个核（core）运行一个线程。")) == {"核"}
    from zhenglossary.bilingual import _bound_before

    assert _bound_before(("孪", "zg"), frozenset()) and not _bound_before(("个", "q"), frozenset())


def test_prefix_characters_opening_the_clause_are_the_terms_where_the_span_leaves_english_unsaid():
    # powder metallurgy: 冷 *cold* and 等 (*equal*: the iso- of *isostatic*, tagged a
    # particle) open the sentence before the aligned 静压
    assert "冷等静压" in _found("冷等静压（cold isostatic pressing, CIP）用于陶瓷坯体。")
    # orthopaedics: 前 (a locality word; CC-CEDICT has no *anterior*) opens the sentence
    assert "前交叉韧带" in _found("前交叉韧带（anterior cruciate ligament, ACL）断裂多见于运动员。")
    from zhenglossary.bilingual import _prefix_characters

    assert _prefix_characters("冷等", frozenset()) and _prefix_characters("粗", frozenset())
    # no determiner, preposition or adverb, and not inside a clause
    assert not _prefix_characters("该", frozenset()) and not _prefix_characters("用", frozenset())
    assert not _prefix_characters("再", frozenset())
    # one adjective of two characters (最小 *minimum*, for *minimal*)
    assert _prefix_characters("最小", frozenset()) and not _prefix_characters("采用", frozenset())
    assert "最小对立对" in _found("最小对立对（minimal pairs）可以区分两个音位。")
    assert "方法" in _found("本方法（our method）更快。")


def test_a_word_before_a_one_character_head_says_the_unsaid_modifier():
    # environmental science, caching: 期 says *period*; 滞留, 驻留 (no gloss says
    # *residence*, *dwell*) stand before it: a term is not one character
    assert "滞留期" in _found("污染物的滞留期（residence period）较长。")
    assert "驻留期" in _found("缓存的驻留期（dwell period）很短。")
    # a common verb of general Chinese is the clause's: no 获取锁 *exclusive lock*
    assert not _found("需要获取锁（exclusive lock）。")


def test_a_symbol_with_primes_is_a_quantitys_symbol():
    # rheology: G′ and G″ after the moduli's English
    found = _found("我们测量了储能模量（storage modulus, G′）和损耗模量（loss modulus, G″）。")
    assert found["储能模量"].english == "storage modulus" and found["储能模量"].abbr == ""
    assert "损耗模量" in found
    assert "剪切模量" in _found("剪切模量（shear modulus, G'）随温度下降。")


def test_a_lower_case_letter_before_a_capital_is_no_code_when_no_word_follows():
    # chemistry, molecular biology: pH, pKa and siRNA are written so
    assert "pH 缓冲能力" in _found("实验测定了 pH 缓冲能力（pH buffering capacity）。")
    assert "pKa 值" in _found("酸的 pKa 值（pKa value）为 4.8。")
    # code stays code
    assert not _found("调用更新函数（updateOutputKernel）。")
    assert not _found("线程数（nThreads）设为 8。")


def test_letters_of_the_abbreviation_inside_the_chinese_are_the_terms():
    # clinical chemistry, ultrasound: C of CRP, B of BUS are written inside the term
    assert "C 反应蛋白" in _found("血清 C 反应蛋白（CRP）升高。")
    assert "B 型超声" in _found("用 B 型超声（BUS）检查。")
    # sleep medicine, epigenetics: an abbreviation inside, whose initial opens the other
    assert "REM 睡眠行为障碍" in _found("REM 睡眠行为障碍（RBD）常先于帕金森病出现。")
    assert "DNA 甲基化" in _found("检测了 DNA 甲基化（DM）水平。")
    # a letter the abbreviation does not open with, with no letter before it: not taken
    assert "型流感" in _found("患者 A 型流感（IAV）阳性。")


def test_a_greek_letter_the_english_spells_out_is_the_terms_head():
    # nuclear physics, astronomy: Unicode names α ALPHA, γ GAMMA
    assert "α 粒子" in _found("使用 α 粒子（alpha particles）轰击靶材。")
    assert "γ 射线暴" in _found("γ 射线暴（gamma-ray bursts, GRBs）持续时间很短。")
    # a Greek letter the English does not spell stays out (a variable)
    assert not any(zh.startswith("λ") for zh in _found("取 λ 正则项（regularization term）为 0.1。"))


def test_a_letter_of_an_english_function_word_asks_no_chinese_word():
    # environmental economics: the T of WTP is *to*, which no Chinese word says; it does
    # not send the term's start over 游客的
    assert "支付意愿" in _found("游客的支付意愿（willingness to pay, WTP）与收入相关。")
    from zhenglossary.align import english_tokens, english_words

    assert english_tokens("willingness to pay") == [("willingness", False), ("to", True), ("pay", False)]
    assert english_words("willingness to pay") == ["willingness", "pay"]


def test_a_verbal_noun_cedict_reads_only_as_a_verb_ends_the_reach():
    # geodesy: 地面 says *ground*, not *land*; the reach for it stops at 监测 "to monitor"
    assert "地面沉降" in _found("卫星用于监测地面沉降（land subsidence）。")
    # but a species' epithet is reached for like a name (酿酒 "to brew")
    assert "酿酒酵母" in _found("我们培养了酿酒酵母（Saccharomyces cerevisiae）。")


def test_a_number_the_english_writes_after_the_word_the_chinese_after_it_says_is_the_terms():
    # medicine, astronomy: 型 says *type*, and the 2 or I follows it in the English
    assert "2 型糖尿病" in _found("2 型糖尿病（type 2 diabetes）患者需要长期随访。")
    assert "I 型超新星" in _found("I 型超新星（type I supernova）没有氢线。")
    # a Latin word the English has elsewhere stays out
    assert "微调" in _found("对 BERT 微调（fine-tuning BERT）")


def test_a_decimal_point_inside_a_latin_word_is_part_of_it():
    # air quality: PM2.5 in the English, before the Chinese, and alone
    assert "PM2.5 暴露" in _found("PM2.5 暴露（PM2.5 exposure）与呼吸系统疾病相关。")
    assert _found("细颗粒物（PM2.5）浓度超标。")["细颗粒物"].abbr == "PM2.5"
    assert not _found("见图（Fig. 3）")


def test_a_run_filling_its_table_cell_is_the_term_whole():
    # geotechnics, demography: the cell holds the term and its parenthesis only
    assert "压缩模量" in _found("| 土层 | 压缩模量（Es） | 内摩擦角（φ） |")
    assert "粗结婚率" in _found("| 年份 | 粗结婚率（CMR） | 2020 |")
    # not across a function word, and not outside a cell
    assert "模量" in _found("| 采用的是压缩模量（Es） |")


def test_a_run_filling_a_list_item_or_its_label_is_the_term_whole():
    # demography, geotechnics: the item is the term, its parenthesis and a description
    assert "粗死亡率" in _found("1. 粗死亡率（CDR）：每千人死亡数")
    assert "超固结比" in _found("- 超固结比（overconsolidation ratio，OCR）")
    # a verb opening the item stays out, and so does the clause in a sentence
    assert "混合精度" in _found("- 使用混合精度（mixed precision）")
    # (in a sentence the clause 表中的 stays out; since round ten the phrase after 的 is
    # the term whole, 粗 *crude* and all, where before only 死亡率 was found)
    found = _found("表中的粗死亡率（CDR）逐年下降。")
    assert "粗死亡率" in found and not any(zh.startswith("表") for zh in found)


def test_a_common_verb_spelling_a_later_letter_at_the_clause_edge_is_the_clauses():
    # materials, decision analysis: 进行 "to do" takes the D of EDS, 运用 the P of AHP
    assert "能谱分析" in _found("样品经扫描电镜（SEM）观察后，再进行能谱分析（EDS）。")
    assert "层次分析法" in _found("运用层次分析法（AHP）确定权重。")
    # with the English too: the letters of the words no Chinese word says, and then a
    # verb CC-CEDICT reads only as a verb spells none (采用 "to adopt", the A of ABC)
    assert "作业成本法" in _found("采用作业成本法（activity-based costing, ABC）分摊间接费用。")
    assert "优选论" in _found("## 优选论（Optimality Theory，OT）")    # 优选 is also *preferred*
    assert "层次分析法" in _found("运用层次分析法（Analytic Hierarchy Process, AHP）确定权重。")
    # the first letter: the term's own first word (计算 of CFD); a word before it may
    # open the term (跨站|请求 of CSRF)
    assert "计算流体力学" in _found("采用计算流体力学（CFD）模拟。")
    assert "跨站请求伪造" in _found("防御跨站请求伪造（CSRF）攻击。")


def test_an_abbreviation_with_digits_is_the_terms_not_a_reference():
    # acoustics, medicine, networking: RT60 after the English, T2D and C2S alone
    par = _found("混响时间（reverberation time, RT60）约为 1.2 s。")["混响时间"]
    assert par.english == "reverberation time" and par.abbr == "RT60"
    assert _found("2 型糖尿病（type 2 diabetes, T2D）患者需要随访。")["2 型糖尿病"].abbr == "T2D"
    assert _found("流量分为客户端到服务器（C2S）两类。")["客户端到服务器"].abbr == "C2S"
    # a reference with digits is still dropped
    assert _found("公钥基础设施（public key infrastructure, RFC 5280）")["公钥基础设施"].abbr == ""


def test_a_quantitys_symbol_between_the_term_and_its_english_is_skipped():
    # superconductivity, mechanics, hydrogeology: the writer names the symbol first
    assert _found("临界温度 Tc（critical temperature）约为 92 K。")["临界温度"].english \
        == "critical temperature"
    assert "体积模量" in _found("体积模量 K（bulk modulus）随压力增大。")
    assert "渗透系数" in _found("渗透系数 k (hydraulic conductivity) 取 1e-5 m/s。")
    # a Latin word the English has is no symbol: still 中文 English（ABBR）
    assert not _found("使用 Go（golang）编写。")


def test_a_noun_the_lemmatiser_knows_as_singular_stays_singular():
    # ecology, medicine: *species*, *diabetes* end in -es but are their own singular
    assert _found("入侵物种（invasive species）改变了食物网。")["入侵物种"].english == "invasive species"
    assert _found("妊娠糖尿病（gestational diabetes）需要筛查。")["妊娠糖尿病"].english \
        == "gestational diabetes"
    from zhenglossary.align import singular

    assert singular("caches") == "cache" and singular("vertices") == "vertex"


def test_a_latin_head_and_one_character_saying_the_word_after_its_hyphen_is_a_term():
    # osteoporosis, statistics: T 值 *T-score*, Z 值 *Z-score*, though 值 says *value*
    assert "T 值" in _found("骨密度以 T 值（T-score）表示。")
    assert "Z 值" in _found("采用 Z 值（Z-score）标准化。")
    assert not _found("采用 Z 值（Z）标准化。")


def test_a_passive_verb_jieba_made_one_noun_ends_the_clause_where_nothing_aligns():
    # plant physiology: jieba tags 被称作 n; 被 and 称作 "to be called" end the clause
    assert "光呼吸" in _found("这一过程被称作光呼吸（photorespiration）。")
    from zhenglossary.bilingual import _passive_verb

    assert _passive_verb("被称作", frozenset()) and not _passive_verb("光呼吸", frozenset())


def test_no_term_starts_with_a_suffix_character():
    # haematology: 性 (CC-CEDICT: "(noun suffix)") makes 弥散 an adjective of the term
    assert "弥散性血管内凝血" in _found("患者并发弥散性血管内凝血（DIC）。")
    from zhenglossary.bilingual import _suffix_character

    assert _suffix_character("性") and not _suffix_character("血")


# ------------------------------------------------------ issue 22, round eight: the finder

def test_a_noun_phrase_shorter_than_its_english_asks_takes_its_modifiers():
    # chemical engineering: jieba cuts 鼓|泡塔 and nothing aligns; *bubble columns* asks
    # for four characters or more, and 鼓 (rare in general Chinese) is a modifier, so the
    # noun phrase is the term at a sentence's start, after a comma, a preposition, a
    # copula or a count
    for text in ("鼓泡塔（bubble columns）广泛用于发酵工业。",
                 "气液传质，鼓泡塔（bubble columns）最常用。",
                 "在鼓泡塔（bubble columns）中气含率随表观气速增加。",
                 "反应器是鼓泡塔（bubble column）。",
                 "在 2 个鼓泡塔（bubble columns）中测量。"):
        assert "鼓泡塔" in _found(text), text
    # zoology: where nothing aligns and the last character (鸮, jieba's zg) ended the
    # content words at once, the noun phrase after 的 is the term
    assert "灰林鸮" in _found("老林子里的灰林鸮（Strix aluco）在夜里捕鼠。")
    assert "雕鸮" in _found("动物园新来的雕鸮（Bubo bubo）适应得很好。")
    # but not from a widespread last character (块, a classifier too)
    assert not _found("把地图切成多个小块（tiles）再渲染。")
    # a unit saying only what the term says, or a clause verb, stays outside
    assert "预写日志" in _found("服务器先写入预写日志（write-ahead log，WAL）再应答。")
    from zhenglossary.bilingual import _morpheme_unit, english_characters

    none = frozenset()
    assert all(_morpheme_unit(w, f, none) for w, f in [("仿", "d"), ("破", "v"), ("七", "m"),
                                                       ("红外", "nr")])
    assert not any(_morpheme_unit(w, f, none) for w, f in [
        ("做", "v"), ("让", "v"), ("调用", "v"), ("利用", "n"), ("的", "uj"), ("在", "p"),
        ("两个", "m"), ("是", "v"), ("剧烈", "a"), ("中", "f")])
    # a character per syllable, two to four a word, one more at most
    assert english_characters("stellarator", "") == (3, 5)
    assert english_characters("camera traps", "") == (4, 6)
    assert english_characters("", "VU") == (2, 5)


def test_a_noun_character_after_a_verb_makes_the_verb_the_terms_where_nothing_aligns():
    # product analytics, packaging: 率 (tagged v, CC-CEDICT "rate") and 表 head the verb
    # before them: 留存|率 *retention*, 配置|表 *manifest*
    assert "留存率" in _found("应用的留存率（retention）下降了。")
    assert "配置表" in _found("我们把参数写进配置表（manifest）。")
    from zhenglossary.bilingual import _nominal_head

    none = frozenset()
    assert _nominal_head(("率", "v"), ("留存", "v"), none)
    assert not _nominal_head(("个", "q"), ("留存", "v"), none)       # a classifier
    assert not _nominal_head(("率", "v"), ("细菌", "n"), none)       # after a noun: _bound_head
    # finance: the verb before the span says the English's opening past participle
    assert "隐含波动率" in _found("期权的隐含波动率（implied volatility）随行权价变化。")


def test_a_verb_before_the_parenthesis_heads_a_noun_phrase_where_nothing_aligns():
    # molecular biology, surface engineering: nothing aligns, and the common verb right
    # before the parenthesis (测定, 强化) is the head of what the English's noun phrase
    # names, not the clause's verb (the clause's verb, 用, stands before the term)
    assert "荧光素酶测定" in _found("我们用荧光素酶测定（luciferase assay）检测启动子活性。")
    assert "喷丸强化" in _found("轴承座用喷丸强化（shot peening）处理。")
    from zhenglossary.bilingual import _verb_head

    none = frozenset()
    assert _verb_head(("测定", "v"), "luciferase assay", none)
    assert not _verb_head(("测定", "v"), "assay", none)             # one word: no phrase
    assert not _verb_head(("测", "v"), "luciferase assay", none)    # one character
    assert not _verb_head(("噬斑", "n"), "plaque assay", none)      # not a verb


def test_a_verb_introducing_a_name_is_never_the_terms():
    # physical education: the English's unsaid word (*rod*: 杆 is tagged a measure word
    # and CC-CEDICT has no *rod* for it) asks for more on the left, but 俗称 ("commonly
    # referred to as") introduces the name after it
    assert "爬杆试验" in _found("这项体能测试俗称爬杆试验（rod climbing test）。")
    from zhenglossary.bilingual import _naming_verb, term_span

    run = "又叫爬杆法"
    assert run[term_span(run, "rod climbing", "")[0]:] == "爬杆法"
    none = frozenset()
    assert all(_naming_verb(w, none) for w in ("叫", "称为", "又称", "俗称", "简称", "叫做"))
    assert not any(_naming_verb(w, none) for w in ("即", "有", "无", "称", "所谓", "效应"))


def test_a_latin_word_before_the_parenthesis_ending_the_english_ends_the_term():
    # biochemistry, nutrition, plastics: the English ends with the letter written after
    # the Chinese (*protein kinase C*, *vitamin D*), so the letter is the term's end and
    # the Chinese before it says the rest; a word introducing an example (比如, CC-CEDICT
    # "for example") stays outside
    assert "蛋白激酶 C" in _found("试验采用了蛋白激酶 C（protein kinase C）抑制剂。")
    assert "维生素 D" in _found("每日补充维生素 D（vitamin D）可以预防佝偻病。")
    assert "双酚 S" in _found("塑料里的添加剂，比如双酚 S（bisphenol S），同样受到关注。")
    from zhenglossary.bilingual import _naming_verb, split_body

    # one letter ending the English is a reference unless the Chinese writes it too
    assert split_body("Appendix B") is None
    assert split_body("vitamin D", "D") == ("vitamin D", "")
    assert _naming_verb("比如", frozenset()) and _naming_verb("例如", frozenset())


def test_a_name_with_its_possessive_heads_the_term():
    # neurology, optics: the English opens with the name's possessive
    assert "Parkinson 病" in _found("Parkinson 病（Parkinson's disease）患者常有震颤。")
    assert "Fermat 原理" in _found("Fermat 原理（Fermat's principle）可以推出折射定律。")


def test_the_copula_jieba_glued_to_the_terms_first_character_stays_outside():
    # fluids: jieba reads 是非 ("right and wrong"), but 非 alone says *non-*
    assert "非牛顿型流体" in _found("该流体是非牛顿型流体（non-Newtonian fluid）。")
    from zhenglossary.bilingual import _resegment

    units = _resegment([("是非", "n"), ("牛顿", "nr"), ("型", "k"), ("流体", "n")],
                       "non-Newtonian fluid", "", frozenset())
    assert units[0] == ("是", "v") and units[1][0] == "非"
    # a word whose own sense says the English is kept (属性 *attribute*)
    assert _resegment([("属性", "n")], "attribute", "", frozenset()) == [("属性", "n")]


def test_a_run_opening_its_sentence_is_the_term_whole_when_its_span_leaves_english_unsaid():
    # exercise physiology, biochemistry: CC-CEDICT reads 呼吸 "to breathe", not
    # *respiratory*, so only 商 / 链 aligned, and a one-character span was dropped; the run
    # opens its sentence, is no longer than the English asks for and holds no function
    # word or common verb, so it is the term
    assert "呼吸商" in _found("呼吸商（respiratory quotient，RQ）反映底物的氧化比例。")
    assert "呼吸链" in _found("呼吸链（respiratory chain）位于线粒体内膜。")
    # a common verb (jieba IDF below 6: 采用) is the clause's, not the term's
    assert "抽水蓄能" in _found("电站采用抽水蓄能（pumped storage）调峰。")
    from zhenglossary.bilingual import _opening_run

    none = frozenset()
    assert _opening_run("呼吸频率", 2, "respiratory rate", "", none)
    assert not _opening_run("电站采用抽水蓄能", 4, "pumped storage", "", none)
    assert not _opening_run("该方法的呼吸频率", 6, "respiratory rate", "", none)
    # nor a verb of using (CC-CEDICT "to use": 运用), nor, with letters alone, a verb
    # opening the run that does not spell the first letter (防御 of CSRF)
    assert not _opening_run("运用层次分析法", 2, "analytic hierarchy process", "AHP", none)
    assert not _opening_run("防御跨站请求伪造", 2, "", "CSRF", none)


def test_a_one_character_noun_standing_alone_is_a_term_though_nothing_aligns():
    # wound care, machining: CC-CEDICT reads 痂 "scab", 楔 "wedge", so nothing aligns;
    # the character opens its sentence alone, jieba tags it a noun and the English is one
    # word the lemmatiser knows as a noun
    assert "痂" in _found("痂（crust）脱落后会留下浅色的斑。")
    assert "楔" in _found("楔（shim）的厚度按间隙选取。")
    # not a verb standing alone; a general noun nothing aligns inside a sentence is the
    # term after a count only (每个|核), alone
    assert not _found("看（see）图 2 的曲线。")
    assert set(_found("每个核（core）运行一个线程。")) == {"核"}


def test_a_symbol_after_one_common_english_word_is_dropped_like_an_annotation():
    # petroleum engineering, thermodynamics: a quantity named by one lower-case word and
    # given its symbol (*permeability, k*; *porosity, φ*)
    assert _found("渗透率（permeability，k）随埋深降低。")["渗透率"].english == "permeability"
    assert _found("储层的孔隙度（porosity, φ）约为 0.2。")["孔隙度"].english == "porosity"
    from zhenglossary.bilingual import split_body

    assert split_body("enthalpy，H") == ("enthalpy", "")
    # names in capitals stay a list, not a term and its symbol
    assert split_body("Python, Go") is None


def test_a_run_opening_its_sentence_is_the_term_whole_though_nothing_aligns():
    # automotive, mining: nothing aligns (start at the run's end); the run opens the
    # sentence and holds no function word, common verb or count
    from zhenglossary.bilingual import _opening_run

    none = frozenset()
    assert _opening_run("线控转向", 4, "steer-by-wire", "", none)
    assert _opening_run("回采率", 3, "recovery ratio", "", none)
    # a count and its measure word is the clause's (两只 of 两只冷镦机)
    assert not _opening_run("两只冷镦机", 5, "cold headers", "", none)
    assert "冷镦机" in _found("两只冷镦机（cold headers）同时工作。")


def test_a_verb_of_using_is_never_taken_into_the_term():
    # sensors: jieba tags 利用 a noun, but CC-CEDICT reads it "to use", "to utilize": it
    # introduces the method, and the reach for the unsaid *pyro-* / *piezo-* stops there
    assert "热释电效应" in _found("该探测器利用热释电效应（pyroelectric effect）感知人体。")
    assert "压阻效应" in _found("该芯片利用压阻效应（piezoresistive effect）测量压力。")
    from zhenglossary.bilingual import _using_verb

    assert all(_using_verb(w) for w in ("利用", "采用", "使用", "运用", "用"))
    assert not any(_using_verb(w) for w in ("通用", "效应", "呼吸", "作用"))


def test_the_phrase_after_a_function_word_is_the_term_whole_when_its_span_leaves_english_unsaid():
    # mining subsidence, rock mechanics: 下沉 (CC-CEDICT "to sink") does not say
    # *subsidence*, so only 带 *zone* aligned, and a one-character span was dropped; the
    # phrase after 和 is no longer than the English asks for and is the term
    assert "下沉带" in _found("该区域和下沉带（subsidence zone）相邻。")
    # a quantity after the function word stays outside (由|许多|节理面)
    assert "节理面" in _found("岩体由许多节理面（joint planes）切割。")
    from zhenglossary.bilingual import _after_function_word

    none = frozenset()
    assert _after_function_word("该区域和下沉带", 6, none) == 4
    assert _after_function_word("我们报告平均精度", 4, none) is None   # a pronoun: its verb follows


def test_a_name_with_a_number_or_an_apostrophe_heads_the_term():
    # networking, space habitats: the English opens with the name written before the
    # Chinese, a number its second word or an apostrophe inside it
    assert "IEEE 1588 协议" in _found("IEEE 1588 协议（IEEE 1588 protocol）用于时钟同步。")
    assert "O'Neill 圆柱" in _found("O'Neill 圆柱（O'Neill cylinder）靠自转产生重力。")


def test_a_word_ending_in_yu_is_not_a_modifier_of_the_term_after_it():
    # welding: the reach for the unsaid *heat* stops at 常见于 (于 "in; at": it governs
    # the noun phrase after it)
    assert "热影响区" in _found("腐蚀常见于热影响区（heat affected zone，HAZ）。")
    from zhenglossary.bilingual import _morpheme_unit

    assert not any(_morpheme_unit(w, "v", frozenset()) for w in ("常见于", "位于", "用于"))


def test_a_function_character_is_not_glued_to_the_start_of_a_word_saying_the_same():
    # pest control: CC-CEDICT has 对美 ("towards the US"), but 美洲 alone already says
    # *American*; gluing 对 to 美 would cut 美洲 and take the preposition into the term
    assert "美洲大蠊" in _found("对美洲大蠊（American cockroach）要用饵剂。")
    from zhenglossary.bilingual import _resegment

    units = _resegment([("对", "p"), ("美洲", "ns"), ("大蠊", "n")], "American cockroach",
                       "", frozenset())
    assert units[0] == ("对", "p")
    # the merge that makes the word saying the English still happens (自|适应 → 自适应)
    assert _resegment([("自", "p"), ("适应", "v")], "adaptive", "", frozenset())[0][0] \
        == "自适应"


def test_an_english_first_phrase_opening_its_clause_may_hold_a_name():
    # condensed matter: a capitalised name inside the phrase (one the lemmatiser does not
    # know) still reads as a sentence's opening, lower case after the first word
    from zhenglossary.bilingual import _opening_phrase

    assert _opening_phrase("Anomalous Nernst effect（反常能斯特效应）", 0,
                           ["Anomalous", "Nernst", "effect"], "反常能斯特效应")
    # a capitalised common word inside is still a title, not a sentence's opening, and
    # the last word is never the name
    assert not _opening_phrase("Anomalous Hall Effect（反常霍尔效应）", 0,
                               ["Anomalous", "Hall", "Effect"], "反常霍尔效应")
    assert not _opening_phrase("Modified Nernst（修正能斯特）", 0, ["Modified", "Nernst"], "修正能斯特")


def test_a_greek_letter_joined_by_a_hyphen_heads_the_term():
    # microbiology, neuroscience, nutrition: the Greek letter the English spells out,
    # written with a hyphen before the Chinese
    assert "β-内酰胺酶" in _found("细菌产生的 β-内酰胺酶（beta-lactamase）会水解青霉素。")
    assert "γ-氨基丁酸" in _found("γ-氨基丁酸（gamma-aminobutyric acid，GABA）是抑制性递质。")
    assert "β-胡萝卜素" in _found("胡萝卜中的 β-胡萝卜素（beta carotene）含量很高。")


def test_a_widespread_noun_character_is_no_modifier_of_a_short_span():
    # continuous casting: 时 ("when", jieba IDF 3.3) after the clause's verb is not the
    # term's, though the span is shorter than its English asks for
    assert "结晶器" in _found("冷却时结晶器（crystallizer mold）会变形。")
    from zhenglossary.bilingual import _morpheme_unit

    none = frozenset()
    assert not _morpheme_unit("时", "n", none) and _morpheme_unit("泡", "n", none)


def test_a_verb_sense_behind_a_note_still_reads_as_a_verb():
    # cell biology: CC-CEDICT writes 介导 "(biology) to mediate", a verb behind a note,
    # its only sense, so where nothing aligns it is the clause's verb, not the term's start
    from zhenglossary.align import verb_sense
    from zhenglossary.bilingual import _mostly_verb

    assert verb_sense("(biology) to mediate") and verb_sense("(of a vehicle) to roll over")
    assert not verb_sense("(of trains) up (i.e. towards the capital)")
    assert _mostly_verb("介导") and not _mostly_verb("反向")
    # a noted verb sense beside a noun sense does not make the word mostly a verb
    assert not _mostly_verb("睡眠")
    assert "胞饮" in _found("该通路主要由网格蛋白介导胞饮（pinocytosis）。")


def test_a_suffix_character_saying_an_english_word_is_no_suffix():
    # materials testing, ophthalmic surgery, mechanical assembly: 上 has a "(noun suffix)
    # on" sense, but here it says *upper* by a sense of its own, so the verb before it
    # (安装, 保护, 拆除) stays the clause's
    assert "上夹具" in _found("拉伸试验前要安装上夹具（upper grip）。")
    assert "上睑" in _found("手术时需要保护上睑（upper eyelid）。")
    assert "上盖板" in _found("工人必须拆除上盖板（upper cover plate）。")
    # a suffix character saying nothing still takes the word before it
    assert "弥散性血管内凝血" in _found("脓毒症可并发弥散性血管内凝血（DIC）。")


def test_a_latin_name_joined_by_a_dash_heads_the_term():
    # biochemistry, population genetics, fluids: names joined by an en dash or a Unicode
    # hyphen before the Chinese are read as joined by a hyphen (before, only the last
    # name was seen, and the term lost its head)
    assert "Michaelis–Menten 方程" in _found(
        "酶动力学数据用 Michaelis–Menten 方程（Michaelis–Menten equation）拟合。")
    assert "Hardy–Weinberg 平衡" in _found("群体满足 Hardy–Weinberg 平衡（Hardy–Weinberg equilibrium）。")
    assert "Navier‐Stokes 方程" in _found("按 Navier‐Stokes 方程（Navier–Stokes equations）求解。")
    assert "Lotka-Volterra 方程" in _found("用 Lotka-Volterra 方程（Lotka–Volterra equations）描述。")


def test_a_hyphenated_compound_before_a_noun_modifies_it():
    # signal processing, soil science, networking: a preposition inside a hyphenated
    # compound that stands before another word does not end the head (the compound is
    # the noun's modifier); a compound that is the whole English still does
    from zhenglossary.bilingual import _english_head

    assert _english_head("peak-to-average power ratio") == (3, None)
    assert _english_head("carbon-to-nitrogen ratio") == (2, None)
    assert _english_head("end-to-end delay") == (2, None)
    assert _english_head("Network-on-Chip") == (0, 1)
    assert _english_head("Principle of Least Privilege") == (0, 1)
    assert "峰值平均功率比" in _found("功放测试常用峰值平均功率比（peak-to-average power ratio，PAPR）。")


def test_a_one_character_term_opening_its_sentence_stands_alone():
    # anatomy, botany: a character opening its sentence, its gloss saying its one English
    # word, is the sentence's subject and a term though widespread in general Chinese
    assert "肝" in _found("肝（liver）是最大的实质器官。")
    assert "茎" in _found("叶片的气孔很多。茎（stem）负责输导水分。")
    # a label opening a line is not; a character inside a sentence after a count is the
    # count's noun (test_a_one_character_noun_after_a_clause_word_is_a_term)
    assert not _found("注（note）：以下数据为估算。")
    assert set(_found("每个细胞有一个核（nucleus）。")) == {"核"}
    # nor a verb opening its sentence (jieba: v; *see* is no noun)
    assert not _found("看（see）图 2 的曲线。")


def test_a_widespread_verb_jieba_tags_a_noun_ends_the_reach_for_unsaid_english():
    # law, logistics: 产生 ("to produce", CC-CEDICT's only senses) is tagged n by jieba;
    # it is the clause's verb all the same, so the reach for the English words no Chinese
    # word says (*collateral*, *inventory*) stops before it
    assert "附带裁定" in _found("该法院可以在审理中产生附带裁定（collateral ruling）。")
    assert "账实差异" in _found("仓储环节在盘点中产生账实差异（inventory discrepancy）。")
    # rice agronomy, aquaculture: and where nothing aligns, before the rest of the run
    # (more than one bound character, which would make it a noun: 利用|度)
    assert "垩白粒" in _found("稻田在灌浆期中产生垩白粒（chalky kernels）。")
    assert "泛塘" in _found("鱼塘在夏夜中产生泛塘（fish kill）。")
    # an adjective by jieba's tag that CC-CEDICT reads as a verb still modifies
    from zhenglossary.bilingual import _clause_verb_tagged_otherwise

    assert _clause_verb_tagged_otherwise("产生", "n")
    assert not _clause_verb_tagged_otherwise("混杂", "a")


def test_a_verb_after_a_function_word_before_a_span_saying_the_englishs_opening_is_the_clauses():
    # aquaculture, rice agronomy: after 以 or 但 the phrase would be the term whole, but
    # a verb CC-CEDICT reads only as "to …" (排除, 遇到) stands in it and the span's first
    # word already says the English's first word (池塘 *pond*, 稻田 *rice*): the verb is
    # the clause's predicate, with nothing left for it to translate
    assert "池塘缺氧隐患" in _found("养殖户每天巡塘，以排除池塘缺氧隐患（pond oxygen risk）。")
    assert "稻田倒伏区" in _found("收割机效率高，但遇到稻田倒伏区（rice lodging zone）时要减速。")
    # (可以 is tagged a conjunction; 产生 "to produce" follows it, 次生 says *secondary*)
    assert "次生潜育化" in _found("稻田长期淹水可以产生次生潜育化（secondary gleying）。")


def test_the_chinese_head_says_the_english_head_where_nothing_else_does():
    # rice agronomy, logistics, aquaculture: 预警 "early warning" and 预告 "to announce
    # in advance" say *early* / *advance*, which 早期 and 提前 say too, and nothing says
    # the English head (*alert*, *notification*): the Chinese head translates it, so the
    # modifier on the left is the term's
    assert "早期霜冻预警" in _found("稻农需要依靠早期霜冻预警（early frost alert）。")
    assert "提前到货预告" in _found("物流公司依靠提前到货预告（advance arrival notification）。")
    assert "早期病害预警" in _found("养殖场依靠早期病害预警（early disease notification）。")
    # a one-character word saying the same is no evidence (是 "correct" of *corrected*)
    from zhenglossary.bilingual import _head_says_head

    links = [{(1, "")}, {(0, "")}, {(1, "")}]
    _head_says_head("best corrected acuity", ["是", "最佳", "矫正"], ["best", "corrected", "acuity"], links)
    assert links[-1] == {(1, "")}


def test_a_one_character_modifier_between_a_verb_and_the_term_is_the_terms():
    # logistics: one noun, adjective or distinguishing character right before the span,
    # with a verb (or a function word, or the run's start) before it, makes a compound
    # with the word after it; it is no word of the clause (铁托盘 as 木托盘 already was)
    assert set(_found("仓库引入铁托盘（pallet），也引入木托盘（pallet）。")) == {"铁托盘", "木托盘"}
    # (but a widespread distinguishing character, 总 "total; chief" (jieba's b, IDF 4.9),
    # is the clause's, as in 只要|总|利用率 *utilization*: round twenty-four)
    assert set(_found("包裹进入总分拣中心（sorting center）。")) == {"分拣中心"}
    # not 的 read as a noun (的 *target*), nor a one-character term's verb
    assert "目标时效" in _found("客户要求的目标时效（target lead time）为 48 小时。")
    from zhenglossary.bilingual import _orphan_prefix

    assert _orphan_prefix([("需要", "v"), ("加", "n"), ("碱", "n")], 2, frozenset()) == 2


def test_an_abbreviation_glossed_by_its_chinese_is_a_sighting_but_a_remark_is_not():
    """ABBR（中文） where the letters do not align (they spell English the note omits):
    a sighting when the abbreviation stands apart and the Chinese names a thing; never a
    remark, an identifier, or an abbreviation written into a Chinese phrase."""
    found = _found("缩写速查：BP（血压）、EF（射血分数）、CSF（脑脊液）。")
    assert [(z, p.abbr) for z, p in found.items()] == [("血压", "BP"), ("射血分数", "EF"),
                                                         ("脑脊液", "CSF")]
    assert not _found("接口说明见 API（见下文），PR（已合并），CUDA（可选）。")
    assert not _found("### 样品 KX-7（临时编号）")
    assert not _found("结果随后广播给其他GPU（全收集阶段）。")


def test_locants_greek_letters_and_numbered_words_belong_to_the_term():
    """Round fifteen: names of molecules, methods and formats carry locants, Greek letters
    and numbers (6-单乙酰吗啡, β-淀粉酶, 4-bit 量化); they are the term's own, on both
    sides of the parenthesis, in any field."""
    cases = {
        # pharmacology, biochemistry, organic chemistry: a locant joined by a hyphen
        "尿检中检出 3-甲氧基酪胺（3-methoxytyramine，3-MT）即可提示。": ("3-甲氧基酪胺", "3-MT"),
        "小麦芽中的 β-淀粉酶（β-amylase）在 60 °C 失活。": ("β-淀粉酶", ""),
        "解毒首选 N-乙酰半胱氨酸（N-acetylcysteine，NAC）。": ("N-乙酰半胱氨酸", "NAC"),
        "血液里 2,4-二硝基苯酚（2,4-dinitrophenol）的浓度很低。": ("2,4-二硝基苯酚", ""),
        # a name before its locant, said by the English's first word
        "测定果糖-1,6-二磷酸（fructose-1,6-bisphosphate）的含量。": ("果糖-1,6-二磷酸", ""),
        # an English prefix before the letter, said by the word before it
        "煮沸后生成异 β-紫罗兰酮（iso-β-ionone）。": ("异 β-紫罗兰酮", ""),
        # a Greek letter the English spells, before or after the Chinese
        "控制器采用 Δ-Σ 调制器（delta-sigma modulator）。": ("Δ-Σ 调制器", ""),
        "棋类程序依赖 α-β 剪枝（alpha-beta pruning）。": ("α-β 剪枝", ""),
        "组织中转化生长因子 β（transforming growth factor beta，TGF-β）升高。":
            ("转化生长因子 β", "TGF-β"),
        # systems and ML: numbers inside the English word
        "推理时常用 8-bit 量化（8-bit quantization）压缩权重。": ("8-bit 量化", ""),
        "流水线并行常用 1F1B 调度（1F1B schedule）。": ("1F1B 调度", ""),
        "模型选择用 5-折交叉验证（5-fold cross-validation）。": ("5-折交叉验证", ""),
        "网卡挂在 PCIe 5.0 总线（PCIe 5.0 bus）上。": ("PCIe 5.0 总线", ""),
    }
    for text, (zh, abbr) in cases.items():
        found = _found(text)
        assert zh in found, (text, list(found))
        assert found[zh].abbr == abbr, (text, found[zh])
    # not terms: a number with a unit, a range, counts, a citation with a comma
    for text in ("训练用了 4 张卡（4 GPUs）。", "每批数据（3-5 GB）先落盘。",
                 "缓存大小（8GB）足够。", "实验重复了多次（n = 12）。",
                 "该结论（Lamport, 1978）被广泛引用。", "坐标为（2, 3）的点。"):
        assert not any(p.english for p in _found(text).values()), text
    # Chinese on both sides of a hyphen and a number is a range, not a name's locant
    assert "一-二级" not in "".join(_found("分为一-二级缓存（cache）两层。"))


def test_a_one_character_noun_after_a_clause_word_is_a_term():
    # independent gold sets label these: a one-character noun after 的, a count, a
    # pronoun, a conjunction or a clause's verb, jieba cutting it off as its own word
    # (storage, geology, botany, archives, networking)
    assert set(_found("一个连接里可以复用多条流（stream），互不阻塞。")) == {"流"}
    assert set(_found("写入时需要先获取这个目录的锁（lock）。")) == {"锁"}
    assert set(_found("泉水来自 3 km 外的泉（spring）。")) == {"泉"}
    assert set(_found("每株只保留 3 个芽（buds）。")) == {"芽"}
    assert set(_found("数组按行划分，而堆（heap）按对象分配。")) == {"堆"}
    # not after a content word, which is the term's own modifier, nor after one
    # character of a verb, preposition or locality word that may be the term's
    assert "页" not in _found("每个内存页（page）大小为 4 KB。")
    assert "桶" not in _found("编译器采用特化与分桶（bucketing）相结合的策略。")
    assert "震" not in _found("b 值下降可以当作前震（foreshocks）的标志。")


def test_english_first_with_its_abbreviation_inside_the_chinese_parenthesis():
    # networking, numerics, avionics: English（中文，ABBR）, the letters spelling the English
    assert "最大报文段长度" in _found("数据量受 maximum segment size（最大报文段长度，MSS）限制。")
    assert "预条件共轭梯度法" in _found(
        "Preconditioned Conjugate Gradient（预条件共轭梯度法，PCG）多了一次求解。")
    par = _found("机载的 flight management system（飞行管理系统，FMS）负责航路计算。")["飞行管理系统"]
    assert (par.english, par.abbr) == ("flight management system", "FMS")
    # not where the letters spell no English word before, nor a remark
    assert not _found("这里用的是 baseline（基线版本，v2）。")
    assert not _found("参见 appendix（见下文，ABC）。")


def test_an_abbreviation_first_half_spelled_by_plain_chinese_is_a_term():
    # compilers, storage, railways: the Chinese spells half the letters or more and is
    # content words only (多 *multi-* of MLIR; CC-CEDICT's 表示 has no *representation*)
    assert "多级中间表示" in _found("MLIR（多级中间表示）框架允许定义方言。")
    assert "可移植操作系统接口" in _found("POSIX（可移植操作系统接口）语义要求立即可见。")
    assert "中间表示" in _found("LLVM 的 IR（中间表示）是带类型的三地址码。")
    # a remark is no term, however its letters fall
    assert not _found("API（见下文）")
    assert not _found("PR（已合并）")
    assert not _found("CUDA（可选）")


def test_a_widespread_word_opening_the_span_unaligned_is_the_clauses():
    # mycology, GPU programming, statistics: a word of two characters among general
    # Chinese's most widespread (大量, 影响, 作为) that says no English word is not the term's
    assert set(_found("镜检可见大量孢子囊（sporangia）。")) == {"孢子囊"}
    assert set(_found("寄存器用量会影响占用率（occupancy）。")) == {"占用率"}
    assert set(_found("我们把它作为先验分布（prior distribution）。")) == {"先验分布"}
    # rarer words open terms, and so does a widespread one the English's first word
    # asks for, or one beside letters alone
    assert "迁移学习" in _found("迁移学习（transfer learning）可以复用权重。")
    assert "社会资本" in _found("他们研究社会资本（social capital）。")
    assert "最终一致性" in _found("系统只提供最终一致性（eventual consistency）。")
    assert "美国麻醉医师协会" in _found("美国麻醉医师协会（ASA）分级。")


def test_a_one_character_label_opening_a_list_item_does_not_stop_the_finder():
    # a glossary-style list (information theory, optics): the character opens the item,
    # a colon follows; the finder read past the start of the text and raised IndexError
    from zhenglossary.bilingual import find_parentheticals

    for text in ("- 熵（entropy）：随机变量不确定性的度量。", "* 镜（mirror）: 反射面", "熵（entropy）：定义见上。"):
        find_parentheticals(prose_view(text), source=text)      # no exception


def test_a_preposition_character_after_one_saying_an_unsaid_word_is_inside_the_term():
    # ML training, radar: jieba cuts 前向 into 前 (f) | 向 (p); 前 says *forward*
    assert set(_found("模型的输入经过前向传播（forward propagation）得到输出。")) == {"前向传播"}
    assert set(_found("信号经前向散射（forward scattering）后衰减。")) == {"前向散射"}


def test_two_words_joined_by_a_slash_as_the_english_joins_them_are_the_term():
    # HPC, databases, circuits: the Chinese before the slash is cut where its own span starts
    assert set(_found("系统使用检查点/重启（checkpoint/restart）容错。")) == {"检查点/重启"}
    assert set(_found("数据库用读/写锁（read/write lock）保护目录。")) == {"读/写锁"}
    assert set(_found("合成时注意输入/输出阻抗（input/output impedance）匹配。")) == {"输入/输出阻抗"}
    # not where the English has no slash
    assert set(_found("路径 a/重启（restart）")) == {"重启"}


def test_a_singular_english_noun_ending_in_s_is_suggested_as_written():
    # recommender systems, optics: *position bias* was suggested as "position bia"
    par = _found("推荐系统存在严重的位置偏差（position bias），需要校正。")["位置偏差"]
    assert par.english == "position bias"
    par = _found("相机使用广角镜头（wide-angle lens）拍摄。")["广角镜头"]
    assert par.english == "wide-angle lens"
    from zhenglossary.english import normalize_english

    assert normalize_english("Position Biases") == normalize_english("position bias") == "position bias"


def test_a_number_written_in_digits_is_said_by_the_word_opening_with_its_numeral():
    # architecture, distributed training, numerics, databases: 两位 *2-bit*, 二维 *2D*
    assert set(_found("两位饱和计数器 (2-bit saturating counter) 需要两次误判。")) == {"两位饱和计数器"}
    assert set(_found("这种切分方式称为二维张量并行（2D tensor parallelism）。")) == {"二维张量并行"}
    assert set(_found("数据按一维块划分（1D block partitioning）。")) == {"一维块划分"}
    assert set(_found("合并阶段采用三路归并（3-way merge）。")) == {"三路归并"}
    # a count the English does not write stays out
    assert set(_found("每个线程块里有两个线程（threads）。")) == {"线程"}


def test_a_latin_name_with_plus_signs_or_inside_an_adjective_in_shi_is_the_terms():
    # databases, C++, pipeline training, embedded systems
    assert set(_found("一棵 m 阶 B+ 树（B+ tree）的叶结点相连。")) == {"B+ 树"}
    assert set(_found("C++ 模板（C++ template）在编译期展开。")) == {"C++ 模板"}
    assert set(_found("交错式 1F1B 调度（interleaved 1F1B schedule）减小气泡。")) == {"交错式 1F1B 调度"}
    assert set(_found("系统采用嵌入式 Linux 平台（embedded Linux platform）。")) == {"嵌入式 Linux 平台"}


def test_a_lower_case_or_hyphenated_abbreviation_spelling_the_english_is_its_abbreviation():
    # networking, storage, geophysics: cwnd, LSM-tree after the English they abbreviate
    par = _found("发送方维护一个拥塞窗口（congestion window，cwnd），取较小值。")["拥塞窗口"]
    assert (par.english, par.abbr) == ("congestion window", "cwnd")
    par = _found("存储引擎采用日志结构合并树（log-structured merge-tree，LSM-tree）。")["日志结构合并树"]
    assert par.abbr == "LSM-tree"
    # two words that spell nothing of each other are a list
    assert not _found("三种动物（cat, dog）都有。")


def test_a_widespread_word_glossed_by_a_common_english_noun_is_a_term():
    # GPU programming, OS kernels, genetics: CC-CEDICT's senses miss the English
    assert set(_found("CPU 称为主机（host），GPU 称为设备（device）。")) == {"主机", "设备"}
    assert set(_found("内核把物理内存划分为若干区域 (zone)，各有伙伴系统。")) == {"区域"}
    # a name or a remark after a widespread word is not
    assert not _found("我们的方法（Adam）收敛更快。")
    assert not _found("实验结果（见下）如表所示。")


def test_a_character_saying_less_says_the_english_free():
    # distributed systems, memory models, electronics: 无 (CC-CEDICT "-less") says *-free*,
    # though the English writes it after the word the Chinese writes it before
    assert set(_found("分为无冲突复制数据类型（conflict-free replicated data types，CRDTs）两类。")) \
        == {"无冲突复制数据类型"}
    assert set(_found("**定理** 无数据竞争（data-race-free）的程序行为确定。")) == {"无数据竞争"}
    assert set(_found("改用无铅焊料（lead-free solder）以后润湿变差。")) == {"无铅焊料"}


def test_an_abbreviation_spelling_the_englishs_first_words_heads_the_term():
    # verification, LLM serving, distributed databases, caching: the Latin abbreviation
    # before the Chinese spells the English's first words, the Chinese says the rest
    assert set(_found("交给 SMT 求解器（Satisfiability Modulo Theories solver）判定。")) == {"SMT 求解器"}
    assert set(_found("推理时 KV 缓存（key-value cache）占用大量显存。")) == {"KV 缓存"}
    assert set(_found("这个 2PC 协议（two-phase commit protocol）有个老问题。")) == {"2PC 协议"}
    assert set(_found("实现一个 LRU 缓存（least recently used cache）。")) == {"LRU 缓存"}
    # a Greek letter by the English name of its Unicode one (LAMDA: *lambda*)
    assert set(_found("闭包转换与 λ 提升（lambda lifting）都能扁平化。")) == {"λ 提升"}
    # not a Latin word that spells nothing of the English
    assert set(_found("用 GPU 训练模型（model training）。")) == {"训练模型"}


def test_english_first_with_chinese_joined_by_hyphens_as_the_english_is():
    # networking, parsing, kernels: English（中文-中文）
    assert set(_found("P4 的 match-action table（匹配-动作表）本质上是流水线。")) == {"匹配-动作表"}
    assert set(_found("出现 shift-reduce conflict（移进-归约冲突）时要改文法。")) == {"移进-归约冲突"}
    assert set(_found("内核用 read-copy-update（读-复制-更新）保护链表。")) == {"读-复制-更新"}


def test_parenthesis_bodies_with_a_comma_inside_the_english_or_another_name_after_it():
    from zhenglossary.bilingual import split_body

    # GPU architecture: the abbreviation spells the English across its comma
    assert split_body("single instruction, multiple threads，SIMT") \
        == ("single instruction, multiple threads", "SIMT")
    assert set(_found("这种模型称为单指令多线程（single instruction, multiple threads，SIMT）。")) \
        == {"单指令多线程"}
    # CRDTs, flash, pharmacology: an abbreviation joined to the English's last word, or
    # one letter of it glued to a hyphen
    assert split_body("grow-only counter，G-Counter") == ("grow-only counter", "G-Counter")
    assert split_body("program/erase cycles，P/E cycles") == ("program/erase cycles", "P/E cycles")
    assert split_body("P-glycoprotein, P-gp") == ("P-glycoprotein", "P-gp")
    # botany, weiqi: a taxon or the word in its own language after the English
    assert split_body("liverworts，Marchantiophyta") == ("liverworts", "")
    assert split_body("capturing race, semeai") == ("capturing race", "")
    # two English words are still a list
    assert split_body("cat, dog") is None and split_body("input, output") is None
    # and a rendering holding such an abbreviation is split as one holding DTN is
    from zhenglossary.textutil import split_abbreviation

    assert split_abbreviation("congestion window (cwnd)") == ("congestion window", "cwnd")
    assert split_abbreviation("program/erase cycle (P/E cycles)") == ("program/erase cycle", "P/E cycles")
    assert split_abbreviation("offset (getX)") == ("offset (getX)", None)


def test_a_chinese_verb_says_an_english_verb_modifying_the_head():
    # networking, distributed transactions: *live* of *time to live* and *commit* of
    # *commit wait* are verbs, and a Chinese verb says each before the noun
    assert set(_found("每个报文都有生存时间（time to live）。")) == {"生存时间"}
    assert set(_found("协调者要等到提交等待（commit wait）结束。")) == {"提交等待"}


def test_a_character_reading_each_says_the_englishs_per():
    # quantization, numerics: *per-* is a function word the English words drop; 逐
    # (CC-CEDICT "individually") says it
    assert set(_found("激活值采用逐令牌（per-token）量化，权重采用逐通道（per-channel）量化。")) \
        == {"逐令牌", "逐通道"}
    assert set(_found("按逐元素（per-element）方式计算误差。")) == {"逐元素"}


def test_an_abbreviation_inside_the_english_asks_for_the_characters_of_its_words():
    # virtualization: *OS* is two words (操作系统), not one syllable, so a list item's run
    # of seven characters is as long as *guest OS* asks
    assert set(_found("- 客户机操作系统（guest OS）只能看到虚拟网卡。")) == {"客户机操作系统"}
    assert set(_found("- 客户机页表（guest PT）由客户机内核维护。")) == {"客户机页表"}


def test_a_particle_or_locality_character_opening_a_clause_is_a_prefix():
    # thermodynamics, mechanics, neuroanatomy: 等 and 上 follow what they belong to, so
    # opening a sentence they are the term's prefix (等|熵过程 *isentropic process*)
    assert set(_found("等熵过程（isentropic process）没有熵变。")) == {"等熵过程"}
    assert set(_found("等效应力（equivalent stress）超过屈服强度时材料开始塑性变形。")) == {"等效应力"}
    assert set(_found("上丘（superior colliculus）参与眼动控制。")) == {"上丘"}


def test_a_headings_number_is_no_count_and_opens_the_clause():
    # storage, vision, robotics: after ## 3.2 the classifier 块, 条 or 台 is the term's
    # first character, not the measure word of a number
    assert set(_found("## 3.2 块设备驱动（block device driver）")) == {"块设备驱动"}
    assert set(_found("## 2.4 条形码识别（barcode recognition）")) == {"条形码识别"}
    assert set(_found("## 5.1 台阶检测（step detection）")) == {"台阶检测"}
    # a count in a sentence still is one
    assert set(_found("现场安装了 4 支测斜仪（inclinometers）。")) == {"测斜仪"}


def test_a_widespread_verb_before_a_term_is_the_clauses_though_english_is_unsaid():
    # key-value stores, schedulers, obstetrics: the English leaves a word no Chinese word
    # says, and the widespread verb before the term (靠, 提示) is not that word
    assert set(_found("这一层主要靠布隆过滤器（Bloom filter）挡住不存在的键。")) == {"布隆过滤器"}
    assert set(_found("老系统仍然靠轮询调度（round-robin scheduling）。")) == {"轮询调度"}
    assert set(_found("超声提示胎心（fetal heart）正常。")) == {"胎心"}
    # a verb saying the English's prefix is the term's (不可 *non-*), and so is one
    # character before a word saying part of the one English word (系|外行星)
    assert set(_found("脏读之外还有不可重复读（non-repeatable read）。")) == {"不可重复读"}
    assert set(_found("团队持续搜寻系外行星（exoplanet）。")) == {"系外行星"}
    # and a verb before a span saying all the English is the clause's (测|雪水当量)
    assert set(_found("去年冬天我们在山上测雪水当量（snow water equivalent）。")) == {"雪水当量"}


def test_a_one_character_noun_a_clause_names_is_the_term():
    # memory management, runtimes, hashing: after a naming verb, a widespread preposition
    # (把, 到) or 的, one character is the noun the English glosses
    assert set(_found("虚拟内存按固定大小划分，这样的单位称为页（page）。")) == {"页"}
    assert set(_found("运行时把堆（heap）分成若干区域。")) == {"堆"}
    assert set(_found("插入时先把键散列到桶（bucket）里。")) == {"桶"}
    assert set(_found("文件系统把数据切成固定大小的块（block）。")) == {"块"}
    # but a preposition's character may say the English's prefix (对|题 *countersubject*)
    assert set(_found("主题之后是对题（countersubject）。")) == {"对题"}


def test_a_widespread_word_before_a_span_saying_all_the_english_is_the_clauses():
    # phonology, databases: the span says every English word whole, so a widespread noun,
    # adjective or verb before it (证明, 面向) adds what the English does not say
    assert set(_found("这些数据可以证明送气（aspiration）有区别作用。")) == {"送气"}
    assert set(_found("我们讨论面向云存储（cloud storage）的压缩。")) == {"云存储"}


def test_a_modifier_closed_by_de_saying_nothing_of_the_english_is_not_the_terms():
    from zhenglossary.bilingual import _after_unsaid_modifier as after

    # ML, engines: 轻便的 and 老式的 say nothing the English or its letters say
    assert after("轻便的图神经网络", 0, "graph neural network", "GNN", frozenset()) == 3
    assert after("老式的活塞发动机", 0, "piston engine", "", frozenset()) == 3
    # compilers, distributed systems: a modifier saying part of the English is the term's
    assert after("基于图着色的寄存器分配", 0, "graph-coloring register allocation", "", frozenset()) == 0
    assert after("可靠的广播", 0, "reliable broadcast", "", frozenset()) == 0


def test_an_abbreviation_glossed_by_chinese_opening_with_a_word_not_its_character():
    # telecoms: jieba's first word (无缝, in CC-CEDICT) opens the gloss, not the widespread
    # character 无 that a remark opens with (见下文, 已合并)
    assert set(_found("- CWS（无缝切换）是这一代基站的卖点。")) == {"无缝切换"}
    # an abbreviation in capitals is no variable (a letter before a known word: j + edec)
    assert set(_found("Q：JEDEC（固态技术协会）的标准多久更新一次？")) == {"固态技术协会"}
    # a remark still is none
    assert not _found("- API（见下文）")
    assert not _found("- CUDA（可选）")


def test_a_semicolon_opens_a_clause_as_a_full_stop_does():
    # caches: after ； the run opens its clause, so a locality character opening it is the
    # term's prefix (末 *last*), as after 。
    assert set(_found("私有缓存很小；末级缓存（last-level cache）由所有核共享。")) == {"末级缓存"}
    assert set(_found("私有缓存很小。末级缓存（last-level cache）由所有核共享。")) == {"末级缓存"}


def test_a_word_introducing_an_example_is_never_the_terms():
    # distributed systems, ceramics: 如 (CC-CEDICT "such as") introduces the example
    assert set(_found("| 分布式锁 | 如租约（lease） | 需要时钟假设 |")) == {"租约"}
    assert set(_found("- 窑温用测温锥判断，如塞格锥（Seger cones）。")) == {"塞格锥"}
    from zhenglossary.bilingual import _naming_verb

    assert _naming_verb("如", frozenset()) and _naming_verb("例如", frozenset())
    assert not _naming_verb("采用", frozenset())


def test_a_latin_piece_of_a_hyphenated_english_word_inside_the_term():
    # networking: N is a piece of *go-back-N*, so the Chinese before it says *go-back*
    assert set(_found("这种网卡实现了回退 N 帧协议（go-back-N protocol）。")) == {"回退 N 帧协议"}
    # and a verb piece of a hyphenated compound is no verb a Chinese verb before says
    from zhenglossary.bilingual import _hyphened

    assert _hyphened("go", "go-back-N protocol") and _hyphened("off", "let-off")
    assert not _hyphened("live", "time to live")


def test_a_measure_word_after_no_count_is_a_morpheme_of_the_term():
    # chips: 片 measures nothing after a verb, so 片上 is the term's *on-chip*
    assert set(_found("这一代芯片需要片上缓存（on-chip cache）。")) == {"片上缓存"}
    assert set(_found("我们最后选了片上网络（network on chip，NoC）。")) == {"片上网络"}
    # after a count it measures (4 块)
    assert set(_found("机房里新装了 4 块固态硬盘（solid-state drives）。")) == {"固态硬盘"}


def test_a_term_ending_in_a_latin_word_inside_its_emphasis():
    # ML serving, databases: **中文 LATIN**（English ending in LATIN）, the mark closing
    # after the Latin word, and the English's plural of an abbreviation
    assert set(_found("这一代推理引擎支持**稀疏 MoE**（sparse MoE）。")) == {"稀疏 MoE"}
    assert set(_found("近年来**分布式 SQL**（distributed SQL）数据库很流行。")) == {"分布式 SQL"}
    assert set(_found("早期的**关系型 DBMS**（relational DBMSs）都是单机的。")) == {"关系型 DBMS"}
    # English before the parenthesis in emphasis, glossed by its abbreviation, is no term
    assert not _found("我们采用 **Chain Replication**（CR）保证一致性。")


def test_english_first_whose_last_word_aligns_takes_the_word_before_for_the_rest():
    # GPU programming: 发散 says *divergence*; nothing in CC-CEDICT says *warp*, so the
    # English word before says 线程束
    assert set(_found("这种现象叫 warp divergence（线程束发散），要尽量避免。")) == {"线程束发散"}
    # not a function word
    assert not _found("我们用 the fusion（算子融合）。")


def test_english_first_with_its_latin_word_inside_the_chinese():
    # compilers, databases, numerics: the Latin word (or Greek letter by name) is one of
    # the English's, and the Chinese beside it says the rest
    assert set(_found("还有一种 Persistent B-tree（持久 B-tree）值得一看。")) == {"持久 B-tree"}
    assert set(_found("教材里也写成 lambda-term（λ 项）。")) == {"λ 项"}
    assert set(_found("优化器常用 Q-error（Q 误差）衡量基数估计。")) == {"Q 误差"}
    # a reference or a version is none
    assert not _found("见 Table 3（表 3）。")
    assert not _found("用 Python 3（版本 3）跑。")


def test_a_naming_verb_is_never_a_modifier_of_the_term():
    # concurrency: 又称 (tagged n) introduces the name after it
    assert set(_found("**非阻塞栈**（non-blocking stack），又称无锁栈（lockup-free stack），可以并发压栈。")) \
        == {"非阻塞栈", "无锁栈"}
    # caches: one character after a naming verb is the name (又称|块 *block*)
    assert set(_found("交换的基本单位称为缓存行（cache line），又称块（block），常见 64 B。")) \
        == {"缓存行", "块"}


def test_a_general_character_glossed_as_an_item_of_a_list_is_a_term():
    # memory systems: 行 is widespread, but as an item of a 、-list its gloss (*row*) names it
    assert "行" in _found("DRAM 依次分为存储体（bank）、行（row）和列（column）。")
    # not after a comma, where it opens a clause as its subject
    assert not _found("，锁（lock）由协调者分配。")


def test_a_widespread_verb_the_english_names_as_an_action_is_the_term():
    # caches and schedulers: 淘汰, 抢占 are common verbs of general Chinese, but alone
    # before the parenthesis, after a Latin word or a particle, the English noun says it
    assert set(_found("缓存满时按 LRU 淘汰（eviction）。")) == {"淘汰"}
    assert set(_found("内核在时钟中断里检查是否发生了抢占（preemption）。")) == {"抢占"}
    # a verb of the clause before it is not taken, nor half a verb chain
    assert "合并" not in _found("后台线程不断执行压缩合并（compaction）。")


def test_a_title_cased_english_word_labelling_a_heading_glosses_a_widespread_word():
    assert set(_found("## 4.2 淘汰（Eviction）\n")) == {"淘汰"}
    assert set(_found("## 3 调度（Scheduling）\n")) == {"调度"}
    # mid-sentence, a capitalised word beside a widespread word is a name
    assert not _found("我们比较了框架（Spark）和框架（Flink）。")


def test_a_list_item_beside_a_term_found_whole_is_a_term():
    # medicine, software quality: the writer glosses every item of the list alike, so an
    # item nothing aligns is a term when its neighbour, one separator away, is one
    found = _found("病程分为潜伏（latency）、前驱（prodrome）、发作（attack）和缓解（remission）。")
    assert "缓解" in found
    found = _found("设计评审要看可读性（readability）、可测性（testability）与可维护性（maintainability）。")
    assert set(found) == {"可读性", "可测性", "可维护性"}
    # not the list's first item, whose start is the clause's
    assert "先查晶圆切割" not in _found("答：先查晶圆切割（dicing）和封装（packaging）两道工序。")
    # not a name beside a term (a capital where the neighbour's English has none)
    assert "渲染后端" not in _found("比较了字形（glyph）、排版（typesetting）与渲染后端（Metal）。")


def test_a_marked_term_with_math_before_its_parenthesis_and_an_abbreviation_with_a_plus():
    # mechanics: emphasis, then the quantity's symbol, then the English
    assert set(_found("梁的挠度取决于**弹性模量** $E$（elastic modulus）和截面惯性矩。",
                      )) == {"弹性模量"}
    # finance: an abbreviation closing with a plus spells the English all the same
    found = _found("这批债券被评为**投资级加**（investment grade plus，IG+），利差收窄。")
    assert set(found) == {"投资级加"} and found["投资级加"].abbr == "IG+"


def test_a_conjunction_is_no_prefix_of_the_term_after_it():
    # textile and printing machines: 与 reads "to take part in" in CC-CEDICT, but where the
    # word after it says *take* too, or a parenthesis closes right before it, it joins
    assert set(_found("调速时要让喂入速度与卷取（take-up）速度匹配。")) == {"卷取"}
    assert set(_found("印刷机的放卷（unwind）与收卷（take-up）张力要分开控制。")) == {"放卷", "收卷"}
    # a prefix saying the English's first word stays (自 *self*)
    assert "自注意力" in _found("模型的核心是自注意力（self-attention）层。")


def test_an_arrow_between_a_notes_steps_opens_a_clause():
    # a chain of steps written with arrows: the run after → opens its clause, so a prefix
    # CC-CEDICT cannot gloss is the term's (末 of 末级缓存 *last-level cache*)
    found = _found("- 缓存层次：二级统一缓存（L2）→ 末级缓存（LLC）→ 主存")
    assert "末级缓存" in found and "级缓存" not in found


def test_a_transliterated_name_with_its_dot_is_one_term():
    # the middle dot joins a transliterated name's parts as a hyphen joins 洛特卡-沃尔泰拉
    assert set(_found("早期机器大多采用冯·诺依曼架构（von Neumann architecture）。")) \
        == {"冯·诺依曼架构"}
    assert set(_found("配方沿用了让·巴蒂斯特配比（Jean-Baptiste ratio）。")) == {"让·巴蒂斯特配比"}


def test_a_one_character_term_labelling_a_list_item_is_a_term():
    # thermodynamics, a glossary-style list: the label is the term its gloss names
    assert set(_found("- 焓（enthalpy）：体系的热含量。\n")) == {"焓"}
    # not a widespread character labelling a remark
    assert not _found("- 注（note）：以下数据为估计值。\n")


def test_based_on_a_latin_word_then_de_is_the_terms_head():
    # 基于 LATIN 的 … written for *LATIN-based …*: chips, hashing, imaging
    assert set(_found("检测任务交给基于 GPU 的推理引擎（GPU-based inference engine）完成。")) \
        == {"基于 GPU 的推理引擎"}
    assert set(_found("索引采用基于 SHA 的指纹（SHA-based fingerprints）去重。")) == {"基于 SHA 的指纹"}


def test_a_rare_copula_sense_does_not_split_a_dictionary_word():
    # 作 reads "to be" only in its ninth sense: 作业 is one word (*job*), not 作|业
    assert set(_found("- 新增作业依赖（job dependencies）。")) == {"作业依赖"}
    assert set(_found("响应中返回服务端生成的作业标识符（job ID）。")) == {"作业标识符"}


def test_a_verb_before_a_span_saying_all_the_english_is_the_clauses():
    # an option table's description: the cell is no term when a verb saying nothing
    # stands before words that say all the English
    assert set(_found("| `cache.prefix` | `on` | 是否开启前缀缓存（prefix caching） |")) == {"前缀缓存"}
    # a cell that is the term stays whole
    assert set(_found("| 压缩模量（Es） | 10 MPa |")) == {"压缩模量"}


def test_a_compound_joined_by_a_function_word_keeps_its_conjunction():
    # electronics assembly and oncology: the English compound's *and* is the Chinese 并
    # between the words saying its halves, so the term holds both halves
    assert set(_found("贴片产线用拾取并放置（pick-and-place）机器人把元件贴到电路板上。")) \
        == {"拾取并放置"}
    assert set(_found("对低危患者可以采取观察并等待（watch-and-wait）策略，定期复查。")) \
        == {"观察并等待"}
    # (a conjunction with no compound in the English still ends the clause before the term)
    assert set(_found("先清洗并烘干陶瓷坯体（green body）。")) == {"陶瓷坯体"}
    # data lineage: a hyphenated token ending in its function word joins the next word,
    # and 自 (tagged a pronoun) says *from* between the two
    assert set(_found("图数据库里的派生自边（derived-from edge）记录血缘。")) == {"派生自边"}


def test_a_determiner_saying_an_english_word_opens_the_term():
    # networking, nutrition, mobile apps: jieba tags 每秒, 每日 and 本地 as pronouns, but
    # where they say an English word (*second* of *per second*, *daily*, *local*) they
    # are the term's first word, and nothing before them is the term's
    assert set(_found("路由器的转发能力看每秒包数（packets per second）。")) == {"每秒包数"}
    assert set(_found("成年人的钠每日摄入量（daily intake）不宜超过 2 克。")) == {"每日摄入量"}
    assert set(_found("应用把草稿放在本地存储（local storage）里。")) == {"本地存储"}


def test_most_before_the_stem_of_an_english_superlative_is_the_terms():
    # compilers, queueing, text search: 最 glossed *most* says the -est (or -most) of the
    # English word whose stem the next character says, after a preposition or 的 too
    assert set(_found("画出该句型的最右推导（rightmost derivation）。")) == {"最右推导"}
    assert set(_found("队列按最短作业优先（shortest job first）排序。")) == {"最短作业优先"}
    assert set(_found("扫描器对关键字采用的最长匹配（longest match）原则。")) == {"最长匹配"}


def test_a_preposition_after_a_conjunction_or_pronoun_is_not_a_clause_opening_term():
    # navigation and databases: a one-character preposition is taken into the term only
    # inside a clause start of glued single characters (有|向|无环图), not after a
    # pronoun or conjunction that ends the clause before it
    assert set(_found("导航模块先估计姿态，它把卡尔曼滤波器（Kalman filter）的增益调小。")) \
        == {"卡尔曼滤波器"}
    assert set(_found("优化器的稳健性和在数据倾斜（data skew）下的表现都要测。")) == {"数据倾斜"}


def test_a_prefix_character_jieba_glued_to_a_function_word_opens_the_term():
    # composites and processors: jieba cuts 或非 ("NOR") and 一个多, but 非 says *non-*
    # and 多 *multi-*, so the function word is the clause's and the character the term's
    assert set(_found("复合板可看作均质或非均质材料（non-homogeneous material）。")) \
        == {"非均质材料"}
    assert set(_found("一个多核处理器（multi-core processor）足以运行它。")) == {"多核处理器"}
    assert set(_found("控制器支持一个多端口网卡（multi-port NIC）。")) == {"多端口网卡"}


def test_a_verb_right_before_the_span_says_an_english_verbal_noun():
    # storage, learning, operations: the English modifier is a verb's noun (*replication*
    # of *replicate*), so the Chinese verb right before the head says it, though a
    # clause verb stands before it
    assert set(_found("运维把它称为复制因子（replication factor）。")) == {"复制因子"}
    assert set(_found("工程师利用强化学习（reinforcement learning）调参。")) == {"强化学习"}
    assert set(_found("发布前要遵守中断预算（disruption budget）。")) == {"中断预算"}
    # only the verb right before the aligned span: not the clause's verb further left
    assert set(_found("芯片里设有转换后备缓冲器（translation lookaside buffer，TLB）。")) \
        == {"转换后备缓冲器"}


def test_a_verb_taking_its_object_through_a_preposition_is_the_clauses():
    # mineralogy: 转变成 (a verb and its resultative complement, "to turn into") is the
    # clause's verb before the name it turns into, not the name's first word
    assert set(_found("石英在高压下转变成斯石英（stishovite）。")) == {"斯石英"}
    # (verbs that open terms stay: 合成 "to compose", 生成 "to generate")
    assert set(_found("团队用上了合成孔径雷达（synthetic aperture radar）。")) == {"合成孔径雷达"}
    assert set(_found("他们训练生成对抗网络（generative adversarial network）。")) \
        == {"生成对抗网络"}


def test_a_word_opening_with_an_adverb_of_frequency_is_the_clauses():
    # water treatment and data centres: 常用 "in common usage" before a term is the clause's
    # "commonly uses", and its senses spell no abbreviation letter (C, U)
    assert set(_found("锅炉补给水常用软化水（softened water）。")) == {"软化水"}
    assert set(_found("机房常用不间断电源（UPS）供电。")) == {"不间断电源"}
    # a term that says *common* keeps it
    assert set(_found("常用对数（common logarithm）以 10 为底。")) == {"常用对数"}


def test_each_before_the_word_after_per_is_the_terms():
    # storage and optics: *per* inside the English (*cost per byte*) is said by 每 before
    # the word saying what follows *per*, as *per-* opening the English is (逐|通道)
    assert set(_found("存储介质的关键指标是每字节成本（cost per byte）。")) == {"每字节成本"}
    assert set(_found("该光模块的每比特功耗（power per bit）更低。")) == {"每比特功耗"}


def test_a_locality_character_before_a_hyphenated_compounds_second_half_says_its_first():
    # processors: nothing glosses 末 as *last*, but 级 says *level*, the second half of the
    # hyphenated *last-level*, so the character before it says the first half
    found = _found("每个插槽独占一块末级缓存（last-level cache）。")
    assert set(found) == {"末级缓存"} and found["末级缓存"].score == 1.0


def test_an_opening_verb_is_the_clauses_when_the_span_holds_words_for_all_the_english():
    # release notes: nothing aligns 灰度 to *canary* or 集群 to *cluster*, but each stands
    # in the span where its English word stands, so the item's opening verb has nothing
    # left to say and is the clause's
    assert set(_found("- 新增灰度发布（canary release），按百分比放量。")) == {"灰度发布"}
    assert set(_found("- 新增多集群联邦（multi-cluster federation）：一个控制平面管理多个地域。")) \
        == {"多集群联邦"}
    # (a modifier the English asks for before the span is still taken: 呼吸|频率)
    assert set(_found("呼吸频率（respiratory rate）超过 30 次/分提示危重。")) == {"呼吸频率"}


def test_an_abbreviation_labelling_a_list_item_is_glossed_by_its_parenthesis():
    # a glossary written as a list (education, web services): the abbreviation and its
    # parenthesis fill the item's label, so the Chinese is its expansion whatever the
    # letters align to
    found = _found("- **CBT**（基于计算机的考试）：考生在机房作答。")
    assert set(found) == {"基于计算机的考试"} and found["基于计算机的考试"].abbr == "CBT"
    assert set(_found("- **QPS**（每秒查询数）：衡量服务吞吐。")) == {"每秒查询数"}
    # a remark in the label is no expansion
    assert not _found("- **API**（见下文）")
    assert not _found("- **TBD**（待定）")


def test_an_abbreviation_after_a_lists_conjunction_stands_apart():
    # hardware: written without a space after 和, GPU is the list's next item, not a word
    # of a Chinese phrase, so its parenthesis glosses it
    assert "图形处理器" in _found("数据先送到CPU（中央处理器）和GPU（图形处理器）。")
    # (glued to a verb's object it is the clause's: the parenthesis says what it does)
    assert not _found("广播给其他GPU（全收集阶段）。")


def test_a_function_character_jieba_glued_into_a_name_is_the_clauses():
    # compilers: jieba reads 中原 ("the Central Plains") in 循环中原地修改, but 原地 says
    # *in-place*: 中 is the clause's locality word, 原 opens the term
    assert set(_found("编译器在循环中原地修改（in-place modification）数组。")) == {"原地修改"}
    # (a real word of the clause is not split: 其中|学习率)
    assert set(_found("参数更新时，其中学习率（learning rate）最关键。")) == {"学习率"}


def test_a_prefixed_english_word_before_a_latin_word_inside_the_term():
    # logic and type theory: 无类型 says *untyped* as 无 *un-* and 类型 *type*, though
    # nothing aligns the whole word, so the term holds it, the Latin word and the rest
    assert set(_found("这门课先讲无类型 SKI 组合子（untyped SKI combinators）。")) \
        == {"无类型 SKI 组合子"}
    assert set(_found("类型论课讲了无类型 λ 项（untyped lambda terms）。")) == {"无类型 λ 项"}


def test_an_abbreviations_opening_letters_and_digit_written_before_the_chinese():
    # processors and hydrogen storage: the Latin piece before the Chinese, letters and a
    # digit, opens the abbreviation (L1 of L1D, H2 of H2T), so it is the term's
    assert set(_found("每个核心各有一块 L1 数据缓存（L1D）。")) == {"L1 数据缓存"}
    assert set(_found("加氢站的 H2 储氢罐（H2T）需要定期检查。")) == {"H2 储氢罐"}
    # (a Latin word the abbreviation does not open with is not)
    assert set(_found("每个 GPU 数据缓存（L1D）都很小。")) == {"数据缓存"}


def test_a_verb_echoing_a_piece_of_a_word_the_term_says_whole_is_the_clauses():
    # statistics: 依赖 "to depend" matches the *depend* inside *independence*, but 独立性
    # says that word whole, so the verb is the clause's, not the term's first word
    assert set(_found("该方法的可靠性依赖独立性检验（test of independence）的结果。")) \
        == {"独立性检验"}
    assert set(_found("贝叶斯网络的推断依赖条件独立性（conditional independence）这一性质。")) \
        == {"条件独立性"}
    # (a one-character prefix saying a piece stays: 可 *-able* of 可组合性 *composability*)
    assert set(_found("顺序一致性不具备这种可组合性（composability）。")) == {"可组合性"}


def test_a_character_saying_the_englishs_suffix_before_an_unaligned_stem_is_the_terms():
    # software and philosophy of science: CC-CEDICT glosses neither 复用 nor 证伪 with the
    # English stem, so nothing aligns but 可, which says the *-ability*; it is the term's
    # first character, not a modal verb of the clause
    assert set(_found("其次，可复用性（reusability）决定了组件的价值。")) == {"可复用性"}
    assert set(_found("其次，可证伪性（falsifiability）是科学理论的标志。")) == {"可证伪性"}
    assert set(_found("心理学实验的可复制性（replicability）备受质疑。")) == {"可复制性"}
    # (where the stem aligns, it already was: 可部署性 *deployability*)
    assert set(_found("其次，可部署性（deployability）常被忽视。")) == {"可部署性"}


def test_an_unaligned_last_word_standing_for_the_unsaid_head_asks_for_no_modifier():
    # operating systems and meteorology: only the English head (*walker*, *logger*) is
    # unsaid, and the unaligned word ending the span stands in its place, so the span is
    # as long as the English asks and the noun before it (硬件, 机载) is not taken
    assert set(_found("缺页时由硬件页表遍历器（page table walker）查询页表。")) == {"页表遍历器"}
    assert set(_found("温度由机载气温记录仪（air temperature logger）每分钟记录一次。")) \
        == {"气温记录仪"}
    # (where the last word says the head, the unsaid word is elsewhere: 红外|相机 *camera
    # traps* keeps its modifier)
    assert set(_found("保护区布设了红外相机（camera traps）。")) == {"红外相机"}


def test_an_english_prefix_written_as_a_word_before_a_hyphen_is_said_by_its_character():
    # geometry and solid mechanics: *hyper-* stands before a hyphen as a word of its own;
    # 超 says it by CC-CEDICT's "super-; ultra-", so the term says all its English and the
    # changelog's verb before it is the clause's
    assert set(_found("- 新增超球面（hyper-sphere）采样。")) == {"超球面"}
    # (and jieba's 出超 "trade surplus", cut across the clause's complement 出 and the
    # prefix, is two words)
    assert set(_found("该材料表现出超弹性（hyper-elasticity）。")) == {"超弹性"}
    # (a prefix CC-CEDICT already gives was said before: 半监督 *semi-supervised*)
    assert set(_found("- 新增半监督（semi-supervised）训练脚本。")) == {"半监督"}


def test_an_english_word_said_by_an_aligned_word_further_left_is_left_to_it():
    # caching: 缓存 is glossed "cache; buffer memory", but 内存, two aligned words to its
    # left, says *memory* whole, so the term keeps 内存
    assert set(_found("我们实现了一个内存键值缓存（in-memory key-value cache）。")) \
        == {"内存键值缓存"}
    # (statistics: the neighbour case, as before)
    assert "统计显著性" in _found("结果达到统计显著性（statistical significance）。")


def test_words_glossed_alike_say_the_english_words_one_each_in_order():
    # spreadsheets and image sensors: CC-CEDICT glosses 行 and 列 each "row" and "column";
    # in the English's order 行 says *row*, 列 *column*, and the term holds both
    assert set(_found("电子表格支持行到列转置（row-to-column transposition）。")) == {"行到列转置"}
    assert set(_found("图像传感器的行到列串扰（row-to-column crosstalk）很小。")) == {"行到列串扰"}


def test_a_one_character_verb_before_a_word_is_no_modifier_of_the_term():
    # an exercise in computer architecture: 求 ("to seek; to request", every CC-CEDICT
    # sense a verb) before the word opening the term is the exercise's verb, though the
    # term is shorter than its English asks for
    assert set(_found("已知各级命中率（hit rate），求平均访存延迟（average memory access latency）。")) \
        == {"命中率", "平均访存延迟"}
    # (before a lone character it may be the term's morpheme: 取|指 *instruction fetch*)
    assert set(_found("各级依次为取指（IF）、译码（ID）。")) == {"取指", "译码"}


def test_once_each_unsaid_english_word_has_a_word_a_verb_before_them_is_the_clauses():
    # graph theory and circuits: nothing aligns *minimum* or *equivalent*; 最小 and 等效
    # stand for them, and the reach left over does not take the exercise's 求 ("to seek")
    assert set(_found("第三步，求最小生成树（minimum spanning tree）的总权重。")) == {"最小生成树"}
    assert set(_found("已知电路参数（见表 2），求等效输入阻抗（equivalent input impedance）。")) \
        == {"等效输入阻抗"}


def test_a_transliterated_names_first_sound_opens_the_term():
    # oncology and pharmacology: nothing aligns a drug's name; jieba leaves 他 ("he", a
    # pronoun) before 莫昔芬, but 他 *ta* is the sound *tamoxifen* opens with, and 莫 *mo* is
    # not, so the name starts there (pypinyin's reading against the English spelling)
    assert set(_found("乳腺癌术后可以服用他莫昔芬（tamoxifen）。")) == {"他莫昔芬"}
    assert set(_found("抑制剂会升高他克莫司（tacrolimus）的浓度。")) == {"他克莫司"}
    # (a span whose first character already sounds like the name's opening stays)
    assert set(_found("滤波器最后改用了卡尔曼（Kalman）的形式。")) == {"卡尔曼"}


def test_the_sound_of_a_pinyin_syllable_against_an_english_spelling():
    from zhenglossary.bilingual import _sounds_open

    assert _sounds_open("他", "tacrolimus") and _sounds_open("唑", "zolpidem")
    assert _sounds_open("切", "Chebyshev") and _sounds_open("苏", "suvorexant")
    assert not _sounds_open("克", "tacrolimus") and not _sounds_open("是", "tamoxifen")


def test_a_name_opening_the_english_opens_the_term_where_its_first_sound_is():
    # acoustics: jieba scatters 亥姆霍兹 into single characters nothing aligns; *Helmholtz*
    # opens the English, and 亥 *hai* is its first sound, so the term starts there
    assert set(_found("空腔可看作亥姆霍兹共鸣器（Helmholtz resonator）。")) == {"亥姆霍兹共鸣器"}
    # (a heading's Title Case is no name: *Exascale* is not heard in 亿)
    assert "亿次计算" not in _found("## 面向百亿亿次计算（Exascale Computing）")


def test_an_abbreviation_spelt_whole_by_the_end_of_its_chinese_is_glossed_by_all_of_it():
    # program verification: S, M and T are spelt by 满足性 (*satisfy*), 模 and 理论; the 可
    # before them, a modal verb jieba reads as a remark's opening, is the term's prefix, and
    # the whole parenthesis is the expansion
    assert set(_found("本课只讲 SMT（可满足性模理论）的基本用法。")) == {"可满足性模理论"}
    # (an abbreviation written into a Chinese phrase still is the clause's)
    assert not _found("广播给其他GPU（全收集阶段）。")


def test_once_each_unsaid_english_word_has_a_word_a_preposition_before_them_is_the_clauses():
    # statistics and NLP: 层次 and 分层 stand for the unglossed *hierarchical*; the reach
    # its syllables leave does not take the clause's 与 (after the adverb 常)
    assert set(_found("该方法常与层次贝叶斯模型（hierarchical Bayesian model）结合。")) \
        == {"层次贝叶斯模型"}
    assert set(_found("文本常与分层注意力（hierarchical attention）结合。")) == {"分层注意力"}


def test_more_before_a_word_is_a_quantity_of_the_clause():
    # statistics and horticulture: jieba splits 更多 "more" into 更|多, and 多 would open the
    # term as *multi-*; before a word of two characters the two are the clause's quantity
    assert set(_found("实验需要更多样本量（sample size）才能下结论。")) == {"样本量"}
    assert set(_found("温室里可以种更多叶菜（leafy greens）。")) == {"叶菜"}
    # (before one character 多 may be the term's prefix: 多核 *many-core*)
    assert set(_found("下一版支持更多核处理器（many-core processors）。")) == {"多核处理器"}


def test_a_widespread_distinguishing_character_before_the_term_is_the_clauses():
    # optics: 总 "total; always" (jieba's b, widespread in general Chinese) after the
    # clause's conjunction is no one-syllable modifier of 反射率 *reflectance*
    assert set(_found("如果总反射率（reflectance）偏高，说明镀膜失败。")) == {"反射率"}
    # (a rare character stays the term's one-syllable modifier: 碱 of 碱回收炉)
    assert set(_found("液体送入碱回收炉（recovery boiler）燃烧。")) == {"碱回收炉"}


def test_a_verb_taking_its_object_in_a_table_cell_is_the_cells_not_the_terms():
    # composites and civil engineering: a cell holding a clause, not only a term, keeps
    # its verb of using (用于 "used for") out of the term
    assert set(_found("| 硅烷偶联剂 | 主要用于玻璃纤维增强塑料（glass fibre reinforced plastic） |")) \
        == {"玻璃纤维增强塑料"}
    assert set(_found("| 吸水率 | 用于评估透水混凝土（pervious concrete） |")) == {"透水混凝土"}
    # (a cell that is only the term and its English is the term: | 压缩模量（Es） |)
    assert set(_found("| 压缩模量（Es） | 8 MPa |")) == {"压缩模量"}


def test_a_single_character_between_aligned_words_stands_for_the_unsaid_word():
    # numerical linear algebra, an exercise: 大 (CC-CEDICT "big; large") stands between
    # 稀疏 *sparse* and 矩阵 *matrix* where *huge* is, so nothing is left for the
    # exercise's verb before the span to say
    assert set(_found("4. 讨论稀疏大矩阵（sparse huge matrix）的存储。")) == {"稀疏大矩阵"}


def test_words_before_the_one_saying_the_english_opening_spell_no_letter():
    # services: 急性 says *acute*, the English's first word, and spells the A of AJA; the
    # clause's words before it (容易 "easy", 出现 "to appear") spell no J or A of it
    assert set(_found("服务在扩容后往往更容易出现急性抖动放大（acute jitter amplification，AJA）。")) \
        == {"急性抖动放大"}
    # (letters the English does not give stay spellable: 孪晶诱导塑性钢 *TWIP steel*)
    assert set(_found("孪晶诱导塑性钢（TWIP steel）的层错能较低。")) == {"孪晶诱导塑性钢"}


def test_a_participle_said_by_its_sibling_asks_no_verb_before_the_term():
    # logistics: 自动 says *automatic*, which shares *automat-* with *automated*, so the
    # English's opening participle is said and 便于 ("convenient for") is the clause's
    assert set(_found("仓库便于自动导引车（automated guided vehicle，AGV）通行。")) == {"自动导引车"}


def test_an_adverb_of_the_clause_before_the_term_is_the_clauses():
    # urban climate: 就是 ("exactly; simply", every sense an adverb) stands before 热岛效应,
    # whose *urban* nothing aligns; the reach left for it does not take the adverb
    assert set(_found("这里要注意的就是热岛效应（urban heat island effect）。")) == {"热岛效应"}
    # (an adverb CC-CEDICT reads as an adjective stays: 最终 "final" of 最终一致性)
    from zhenglossary.bilingual import _function_adverb

    assert _function_adverb("就是") and _function_adverb("往往")
    assert not _function_adverb("最终") and not _function_adverb("自动")


def test_the_disposal_constructions_verb_and_complement_are_the_clauses():
    # complexity theory and operating systems: after 把 come the object, the verb and its
    # complement (归约|到, 映射|到); the term is what the object is turned into
    assert set(_found("我们把图着色问题归约到布尔可满足性（SAT）问题。")) == {"布尔可满足性"}
    assert set(_found("调度器把任务映射到非一致内存访问（NUMA）节点。")) == {"非一致内存访问"}


def test_an_english_name_glossed_with_its_own_latin_word_and_a_short_noun():
    # control engineering: the parenthesis repeats *Bode* and renders *plot* with 图, which
    # CC-CEDICT does not gloss "plot": the shared word is evidence enough for a short noun
    assert set(_found("控制课先画 Bode plot（Bode 图）再看相位裕度。")) == {"Bode 图"}
    # (a remark after the shared word is none: 见下文)
    assert not _found("安装 CUDA toolkit（CUDA 见下文）。")


def test_an_abbreviation_sharing_its_end_with_the_latin_inside_its_gloss():
    # molecular biology and storage: *mRNA* ends with the RNA its gloss keeps, *eMMC* with
    # the MMC; the Chinese before the shared piece says the rest
    assert set(_found("疫苗把 mRNA（信使 RNA）包裹在脂质纳米颗粒里。")) == {"信使 RNA"}
    assert set(_found("手机的存储多用 eMMC（嵌入式 MMC）。")) == {"嵌入式 MMC"}


def test_a_verbal_noun_nothing_aligns_is_said_by_the_verb_ending_the_run():
    # housing law: CC-CEDICT's 驱逐 is "to expel; to deport", not *evict*; the English is
    # a verb's action (*evict* + -ion), and the verb ending the run names it
    assert set(_found("房东可以申请法院强制驱逐（eviction）。")) == {"驱逐"}


def test_english_first_a_noun_phrase_its_first_word_aligns_to_is_a_gloss():
    # coastal geomorphology and viticulture: only the English's first word aligns
    # (蜂巢 *honeycomb*, 葡萄 *grape*), from the Chinese's start, and the Chinese is a plain
    # noun phrase: the parenthesis glosses the English, as a weaker alignment needs
    assert set(_found("海岸砂岩上常见 Honeycomb Weathering Pattern（蜂巢溶蚀）。")) == {"蜂巢溶蚀"}
    assert set(_found("Grape Phylloxera Louse（葡萄根瘤蚜）曾毁掉欧洲的葡萄园。")) == {"葡萄根瘤蚜"}
    # (an English aside glued into a Chinese phrase is none)
    assert not _found("广播给其他GPU（全收集阶段）。")


def test_a_verbs_complement_before_the_term_is_the_clauses():
    # version control and machine learning: 到 (CC-CEDICT: "verb complement indicating
    # arriving at a place") after a verb, or opening the run after the last parenthesis
    # (从…到…), ends the clause's verb phrase; it says nothing of an unsaid *staging* or
    # *fully*
    assert set(_found("修改过的文件要先添加到暂存区（staging area）才能提交。")) == {"暂存区"}
    assert set(_found("模型的行为从弱监督（weak supervision）到全监督学习（fully supervised "
                      "learning）都做了对比。")) == {"弱监督", "全监督学习"}


def test_a_chinese_hyphen_mirroring_the_englishs_takes_the_word_before_it():
    # newsroom software and messaging: CC-CEDICT's 发布 is "to release; to issue", not
    # *publish*; the Chinese hyphen stands where the English one does, and the word after
    # it says the English word after it, so the widespread verb before it says *publish*
    assert set(_found("报社的稿件系统走发布-撤回流程（publish-retract workflow）。")) \
        == {"发布-撤回流程"}
    assert set(_found("消息中间件普遍支持发布-确认机制（publish-confirm mechanism）。")) \
        == {"发布-确认机制"}


def test_a_piece_of_an_aligned_word_says_the_english_word_it_says_whole():
    # calligraphy and networking: jieba keeps 程式化 and 发送缓冲区 whole, and the word
    # aligns through one piece (化 *-ization*, 缓冲区 *buffer*); its other piece says the
    # rest (程式 *style*, 发送 *send*), so nothing on the left is needed for it
    assert set(_found("传统书法讲究程式化（stylization）的笔法。")) == {"程式化"}
    assert set(_found("驱动会为每个连接分配更多发送缓冲区（send buffer）。")) == {"发送缓冲区"}


def test_a_word_glossed_with_the_bare_suffix_ability_says_nothing_of_the_word():
    # coatings: 不能 aligned to *-ability* of *weatherability* through the gloss word
    # *ability*, a suffix and no part of a compound; alone, with no word saying the stem,
    # it is no part of the term
    assert set(_found("单靠涂层并不能提高耐候性（weatherability）。")) == {"耐候性"}


def test_a_word_saying_an_english_word_out_of_its_order_is_an_echo():
    # transplant medicine and compilers: 首选 ("first choice; to elect") and 选择 both
    # say *selection*, 依赖 twice *dependence*; the first is out of the English's order
    # (a word saying an earlier English word stands between), the later one in it, so the
    # first says nothing: 首选 stands for the unsaid *preferred*, 依赖 is the clause's verb
    assert set(_found("医院执行首选供体选择（preferred donor selection）。")) == {"首选供体选择"}
    assert set(_found("编译器依赖一张静态依赖图（static dependence graph）。")) == {"静态依赖图"}


def test_a_verb_of_staying_before_the_span_says_an_unsaid_english_verb():
    # tea tasting: CC-CEDICT's 逗留 is "to stay at", a verb whose object follows through a
    # preposition, which usually ends the clause before the term; right before the span,
    # with the English's unsaid word a verb (*linger*), it says that word
    assert set(_found("香气在口腔中的逗留时间（linger time）决定了回甘。")) == {"逗留时间"}


def test_a_pronoun_saying_an_english_word_is_a_word_of_the_term():
    # molecular ecology and statistics: jieba tags 本地 a pronoun, which ended the term
    # before the Latin word inside it; CC-CEDICT glosses it *local*, the English's first
    # word, so the Chinese before DNA or GDP says it
    assert set(_found("课题组建立了本地 DNA 条形码库（local DNA barcode library）。")) \
        == {"本地 DNA 条形码库"}
    assert set(_found("统计局试行本地 GDP 核算（local GDP accounting）。")) == {"本地 GDP 核算"}


def test_a_latin_word_the_english_writes_inside_opens_the_chinese_term():
    # agronomy and operations: the English writes Bt and Redis between its other words,
    # the Chinese puts them first, and the Chinese after them is all the term
    assert set(_found("农场改种 Bt 转基因棉花（transgenic Bt cotton）以减少农药用量。")) \
        == {"Bt 转基因棉花"}
    assert set(_found("我们在机房部署了 Redis 主从集群（primary-replica Redis cluster）。")) \
        == {"Redis 主从集群"}


def test_a_hyphened_wise_or_based_after_a_word_said_asks_for_nothing_more():
    # statistics and public health: *-wise* and *-based* after a word the Chinese says
    # (列 *column*, 问卷 *questionnaire*) are left unwritten in Chinese; they ask the left
    # for no word, so the clause's verb and adverb stay out
    assert set(_found("统计软件会对数据表做列标准化（column-wise normalization）再聚类。")) \
        == {"列标准化"}
    assert set(_found("这家社区医院仅有问卷筛查（questionnaire-based screening）这一手段。")) \
        == {"问卷筛查"}


def test_english_first_the_words_before_an_abbreviation_the_chinese_says_are_kept():
    # genomics and photography: 测序 says *Sequencing* and 延时 *Timelapse*, so the
    # English is the whole phrase, not its last abbreviation alone
    assert _found("实验室新买了一台 Sequencing PC（测序电脑）。")["测序电脑"].english.lower() \
        == "sequencing pc"
    par = _found("这款相机支持 Timelapse API（延时摄影接口）。")["延时摄影接口"]
    assert par.english.lower() == "timelapse api" and not par.abbr
    # (nothing says *Billing*: the abbreviation alone)
    assert _found("医院信息系统对外提供 Billing API（计费接口）。")["计费接口"].abbr == "API"


def test_a_character_cedict_reads_as_the_english_suffix_opens_the_term():
    # network security: 状态 says *stateful* only through its start; CC-CEDICT reads 有
    # as "-ful", the rest of it, so 有 is the term's
    assert set(_found("防火墙分为有状态检测（stateful inspection）和无状态过滤两类。")) \
        == {"有状态检测"}


def test_the_chinese_between_a_greek_head_and_the_span_stands_for_the_words_unsaid():
    # power plants: σ opens the English (*sigma*), 误差报警器 says *error alarm*, and the
    # verb between (累积, CC-CEDICT "to accumulate", not *accrual*) stands for the one word
    # left unsaid after the head: all of it is the term
    assert set(_found("电站装有 σ 累积误差报警器（sigma accrual error alarm）。")) \
        == {"σ 累积误差报警器"}


def test_the_frame_yi_x_wei_y_renders_an_english_x_y_compound():
    # education, nursing and business: 以 X 为 Y 的 renders *X-centered* or *X-oriented*
    # (学生 *student*, 中心 "center"; 市场 *market*, 导向 "oriented"); the frame is the
    # term's, whether the span starts after it or at Y
    assert set(_found("新课标倡导以学生为中心的教学（student-centered teaching）。")) \
        == {"以学生为中心的教学"}
    assert set(_found("医院推行以患者为中心的护理（patient-centered care）模式。")) \
        == {"以患者为中心的护理"}
    assert set(_found("企业转向以市场为导向的研发（market-oriented research）。")) \
        == {"以市场为导向的研发"}
    # (the frame must render the English's compound: not 以此为基础的 before *tiling*)
    assert set(_found("系统以此为基础的分块（tiling）更快。")) == {"分块"}


def test_an_abbreviation_first_with_a_locality_word_spelling_its_extra_letter():
    # hospital and port IT: *eHIS*（外部 HIS）: the abbreviation ends with the Latin word
    # inside the Chinese, and 外部 (a locality word, CC-CEDICT *external*) spells its e
    assert set(_found("医院信息科把系统分为 eHIS（外部 HIS）和 iHIS（内部 HIS）两部分。")) \
        == {"外部 HIS", "内部 HIS"}
    assert set(_found("港口调度区分 eTOS（外部 TOS）与内网系统。")) == {"外部 TOS"}


def test_one_character_opening_its_clause_before_a_latin_tail_is_a_term():
    # programming languages: 纯 says *pure* whole, the Latin tail is the English's last
    # word; at the start of a sentence or item the one character is the term's Chinese
    assert set(_found("纯 Python（pure Python）实现很慢。")) == {"纯 Python"}
    assert set(_found("- 纯 Rust（pure Rust）版本已经可用。")) == {"纯 Rust"}


def test_english_opening_with_a_digit_led_name_with_a_capital_is_a_term():
    # radiology and printing: 3.0T and 2.5D open the English like 3D does; a number with
    # a unit stays a remark
    assert set(_found("医院引进了一台 3.0T 磁共振（3.0T magnetic resonance）扫描仪。")) \
        == {"3.0T 磁共振"}
    assert set(_found("工作室尝试了 2.5D 打印（2.5D printing）工艺。")) == {"2.5D 打印"}
    assert not _found("这段路限速（60 km/h）。")
    assert not _found("实验在 37 ℃（37 degrees）下进行。")


def test_an_abbreviation_head_spelt_through_the_function_words_of_hyphened_english():
    # pharmacy and logistics: OTC spells *over-the-counter* and JIT *just-in-time*, the T
    # of *the* and the I of *in* included; the Chinese after the head says the rest
    assert set(_found("病人需要长期使用 OTC 药物 (over-the-counter drugs) 时应咨询药师。")) \
        == {"OTC 药物"}
    assert set(_found("仓库采用 JIT 配送（just-in-time delivery）降低库存。")) == {"JIT 配送"}


def test_a_verb_of_drawing_help_opens_the_method_not_the_term():
    # archaeology and structural biology: 借助 (CC-CEDICT "to draw support from; with
    # the help of") introduces the means, as 采用 does; neither it nor the subject
    # before it is the term's
    assert set(_found("考古队借助探地雷达（ground-penetrating radar）寻找墓葬。")) == {"探地雷达"}
    assert set(_found("研究者借助冷冻电镜（cryo-electron microscopy）解析结构。")) == {"冷冻电镜"}


def test_a_character_before_a_latin_word_of_the_english_says_what_the_run_leaves():
    # camera engineering: 首 says *first*, *frame* is written in Latin inside the Chinese,
    # and 延迟 after it leaves *first* unsaid; the three are the term
    assert set(_found("相机的关键指标包括首 frame 延迟（time to first frame）与功耗。")) \
        == {"首 frame 延迟"}


def test_a_verb_gloss_says_its_noun_in_ance():
    # building services: CC-CEDICT's 维护 is "to maintain", and *maintenance* is that
    # verb's noun; five shared letters and a gloss that is only a verb make the link
    assert set(_found("电梯必须按规定进入维护模式（maintenance mode）再检修。")) == {"维护模式"}


def test_two_words_saying_one_piece_of_an_english_word_say_it_once():
    # warehousing and debugging: 整个 ("whole; orderly") and 订货 or 排序 each say the
    # *order* of *reorder*; the first adds nothing, so the span does not grow to take it
    assert set(_found("仓库每周核对整个再订货清单（reorder list）。")) == {"再订货清单"}
    assert set(_found("调试时清空整个重排序队列（reorder queue）再重跑。")) == {"重排序队列"}

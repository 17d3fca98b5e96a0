"""Bilingual parentheticals and where their Chinese term starts (sentences from the notes)."""

from __future__ import annotations

import pytest

from zhenglossary.bilingual import common_suffix, find_parentheticals


def one(text, forms=()):
    [par] = find_parentheticals(text, frozenset(forms))
    return par.zh, par.english, par.abbr


@pytest.mark.parametrize("text, expected", [
    # 中文（English）
    ("本文称浪费的能量为“能量膨胀”(energy bloat)。", ("能量膨胀", "energy bloat", "")),
    # 中文 (English, ABBR), with a leading verb/adverb to cut
    ("本文探索了另一种模型加速技术，即早期退出模型 (early-exit networks, EE-DNNs)，它允许",
     ("早期退出模型", "early-exit network", "EE-DNNs")),
    # 中文（English，ABBR）: full-width comma; 使用 is not part of the term
    ("首先，使用图神经网络（Graph Neural Network, GNN）预测所有包对的构建概率。",
     ("图神经网络", "graph neural network", "GNN")),
    ("自适应网格细化（Adaptive Mesh Refinement，AMR）是一种在计算流体动力学",
     ("自适应网格细化", "adaptive mesh refinement", "AMR")),
    # 中文 English（ABBR）
    ("多分辨率方法，如自适应网格细化 Adaptive Mesh Refinement（AMR），可以提升",
     ("自适应网格细化", "adaptive mesh refinement", "AMR")),
    # 中文（ABBR）after 的
    ("我们的工作流程采用了一个面向压缩的兴趣区域（ROI）提取方法", ("兴趣区域", "", "ROI")),
    ("与传统的图神经网络（GNN）通过节点", ("图神经网络", "", "GNN")),
    ("显式拥塞通知（ECN）：", ("显式拥塞通知", "", "ECN")),
    ("在高性能计算（HPC）数据中心的上下文中，数据传输节点（DTNs） 是", None),
])
def test_shapes_and_boundaries(text, expected):
    if expected is None:
        found = [(p.zh, p.abbr) for p in find_parentheticals(text)]
        assert found == [("高性能计算", "HPC"), ("数据传输节点", "DTNs")]
    else:
        assert one(text) == expected


@pytest.mark.parametrize("text", [
    "用户要么使用更灵活的命令式编程接口（如PyTorch）来实现",   # Chinese inside: an example
    "根据流量方向（§IV-C）",                                   # a reference
    "我们追问了一个假设性问题--2 倍 (1)",                      # digits only
    "其中每次迭代对应原始嵌入内核的一个逻辑工作组的计算（EmbeddingBag updateOutputKernel sum mean）",
])
def test_not_bilingual(text):
    assert find_parentheticals(text) == []


def test_glossary_forms_are_never_cut():
    # jieba alone would cut 张量核心; as a glossary form it is kept whole
    zh, english, _ = one("使用低精度张量核心（INT8/INT4 Tensor Core）实现推理加速", {"张量核心"})
    assert zh.endswith("张量核心") and english == "INT8/INT4 Tensor Core"


def test_common_suffix():
    assert common_suffix(["传统图神经网络", "图神经网络", "使用图神经网络"]) == "图神经网络"
    assert common_suffix(["大型语言模型", "大语言模型"]) == "语言模型"
    assert common_suffix([]) == ""

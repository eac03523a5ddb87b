#include "support/catch.hpp"

#include <semfp/text/article.hpp>
#include <semfp/text/html.hpp>
#include <semfp/text/utf8.hpp>

#include <cstddef>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <string_view>

namespace {

std::string read_page(std::string_view name) {
    std::ifstream in(std::filesystem::path(SEMFP_TEST_DATA_DIR) / "html" / name, std::ios::binary);
    REQUIRE(in);
    std::ostringstream ss;
    ss << in.rdbuf();
    return ss.str();
}

bool has(std::string_view text, std::string_view what) { return text.find(what) != std::string_view::npos; }

}  // namespace

TEST_CASE("article: portal news page keeps the story, drops menus, rankings, ads, comments and footer", "[article]") {
    const std::string page = read_page("article_portal.html");
    const semfp::article_text a = semfp::extract_article(page);
    CHECK(a.found);
    CHECK(a.title == "城市地铁新线开通运营 - 南方日报网");
    // Every paragraph of the story.
    CHECK(has(a.text, "经过四年建设，城市地铁五号线今天上午正式开通运营。"));
    CHECK(has(a.text, "票价与既有线路保持一致。"));
    CHECK(has(a.text, "现在乘地铁四十分钟就能到达公司。"));
    CHECK(has(a.text, "届时将与机场快线实现换乘。"));
    // The template.
    for (const std::string_view dropped :
         {"南方日报网", "要闻", "家电以旧换新", "分享到微博", "热点排行", "暴雨预警升级", "新楼盘火爆认购中",
          "网友评论", "终于通车了", "希望早日开通二期", "网站地图", "禁止转载", "window.__cfg"}) {
        CAPTURE(dropped);
        CHECK_FALSE(has(a.text, dropped));
    }
    // All visible text keeps the template.
    CHECK(has(semfp::html_to_text(page), "新楼盘火爆认购中"));
}

TEST_CASE("article: blog post keeps the post with its code, drops navigation, comments, sidebar, footer", "[article]") {
    const semfp::article_text a = semfp::extract_article(read_page("article_blog.html"));
    CHECK(a.found);
    CHECK(has(a.text, "家里的照片和文档越来越多"));
    CHECK(has(a.text, "sudo mount /dev/sda1 /srv/nas"));
    CHECK(has(a.text, "重要的数据一定要在另一个地方再存一份。"));
    for (const std::string_view dropped : {"归档", "评论（3）", "发热严重吗", "加了散热片", "收藏了", "最近文章",
                                           "给旧笔记本换固态硬盘", "署名协议", "阿强的技术笔记"}) {
        CAPTURE(dropped);
        CHECK_FALSE(has(a.text, dropped));
    }
}

TEST_CASE("article: forum thread keeps the first post, drops replies, user panel and pagination", "[article]") {
    const semfp::article_text a = semfp::extract_article(read_page("article_forum.html"));
    CHECK(a.found);
    CHECK(has(a.text, "家里是九十年代的老房子"));
    CHECK(has(a.text, "家里有老人和小孩。"));
    // <br> lines of the post stay lines.
    CHECK(has(a.text, "还有一股霉味。\n去年请人"));
    for (const std::string_view dropped :
         {"一楼多半是地面潮气上返", "坐等高手", "注册：2019", "下一页", "建材选购", "客服电话"}) {
        CAPTURE(dropped);
        CHECK_FALSE(has(a.text, dropped));
    }
}

TEST_CASE("article: a short article beside a long related-links list", "[article]") {
    const semfp::article_text a = semfp::extract_article(read_page("article_short_links.html"));
    CHECK(a.found);
    CHECK(has(a.text, "图书馆自下周一起延长开放时间"));
    for (const std::string_view dropped : {"相关新闻", "校园读书节", "自助借还设备", "流感防护", "学术动态", "版权所有"}) {
        CAPTURE(dropped);
        CHECK_FALSE(has(a.text, dropped));
    }
}

TEST_CASE("article: a page without an article falls back to all visible text", "[article]") {
    const std::string page = read_page("article_none.html");
    const semfp::article_text a = semfp::extract_article(page);
    CHECK_FALSE(a.found);
    CHECK(a.text == semfp::html_to_text(page));
    CHECK(semfp::extract_main_text(page) == semfp::html_to_text(page));
}

TEST_CASE("article: malformed markup (unclosed tags and links, stray end tags, unterminated script)", "[article]") {
    const semfp::article_text a = semfp::extract_article(read_page("article_malformed.html"));
    CHECK(a.found);
    CHECK(has(a.text, "周五晚上机房意外断电"));
    CHECK(has(a.text, "没有丢失业务数据。"));
    CHECK(has(a.text, "备份必须定期做恢复演练。"));
    for (const std::string_view dropped : {"首页", "运维小站", "脚本里的文字", "注释里的文字"}) {
        CAPTURE(dropped);
        CHECK_FALSE(has(a.text, dropped));
    }
}

TEST_CASE("article: the title is included only when asked", "[article]") {
    const std::string page = read_page("article_portal.html");
    semfp::article_options o;
    o.include_title = true;
    const std::string with = semfp::extract_main_text(page, o);
    const std::string without = semfp::extract_main_text(page);
    CHECK(with.starts_with("城市地铁新线开通运营 - 南方日报网\n"));
    CHECK(with.substr(with.find('\n') + 1) == without);
    CHECK_FALSE(has(without, "南方日报网"));
}

TEST_CASE("article: degenerate inputs have a defined outcome", "[article]") {
    using namespace std::string_view_literals;
    CHECK(semfp::extract_main_text("").empty());
    CHECK_FALSE(semfp::extract_article("").found);
    // Plain text without markup is one block: it is the article when long enough.
    const std::string plain(200, 'x');
    CHECK(semfp::extract_main_text(plain) == plain);
    // Invalid UTF-8 and NUL bytes: never fail, output is valid UTF-8.
    const std::string_view bad = "<div><p>\xFF\xFE\0abc\xE4\xB8</p><a href=x>\xC3</div>"sv;
    const std::string t = semfp::extract_main_text(bad);
    CHECK(semfp::utf8::is_valid(t));
    // Deep nesting beyond the tracked depth and thousands of stray end tags.
    std::string deep;
    for (int i = 0; i < 2000; ++i) deep += "<div>";
    deep += "<p>深层嵌套的正文，仍然可以提取出来，不会出错，也不会越界访问。这里再写一些文字，让它足够长。</p>";
    for (int i = 0; i < 3000; ++i) deep += "</div></section>";
    const semfp::article_text d = semfp::extract_article(deep);
    CHECK(has(d.text, "深层嵌套的正文"));
    // Only links: no article.
    std::string links;
    for (int i = 0; i < 100; ++i) links += "<a href=/x>链接文字很长很长很长的标题</a> ";
    CHECK_FALSE(semfp::extract_article(links).found);
}

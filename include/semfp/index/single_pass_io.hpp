#pragma once
/// \file
/// The save and load bodies of `SinglePassClusterer` (index/single_pass_clusterer.hpp, which
/// includes this header and documents the format). Kept apart so that the clusterer's header
/// holds the algorithm; `single_pass_io` is a friend of the clusterer.

#include <semfp/detail/index_table.hpp>
#include <semfp/detail/multi_index.hpp>
#include <semfp/index/cluster_options.hpp>
#include <semfp/index/serialization.hpp>

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <istream>
#include <ostream>
#include <utility>
#include <vector>

namespace semfp {
inline namespace v0 {

template <std::size_t Bits>
class SinglePassClusterer;

namespace detail {

struct single_pass_io {
    /// Writes `c` (format: `SinglePassClusterer::save`). Throws `io_error`.
    template <std::size_t Bits>
    static void save(const SinglePassClusterer<Bits>& spc, std::ostream& os) {
        using C = SinglePassClusterer<Bits>;
        using fingerprint_type = typename C::fingerprint_type;
        detail::binary_writer w(os);
        w.header(C::magic, static_cast<std::uint32_t>(Bits));
        w.u32(spc.m_options.threshold);
        w.u32(static_cast<std::uint32_t>(spc.m_options.match));
        // Clusters are numbered by creation, which is the order of their centre items.
        std::vector<std::uint32_t> centre_items;
        centre_items.reserve(spc.m_clusters);
        for (std::uint32_t i = 0; i < spc.m_item_id.size(); ++i)
            if (spc.m_item_centre[i] == i) centre_items.push_back(i);
        w.u64(spc.m_item_id.size());
        for (std::uint32_t i = 0; i < spc.m_item_id.size(); ++i) {
            w.u64(spc.m_item_id[i]);
            const auto c = std::lower_bound(centre_items.begin(), centre_items.end(), spc.m_item_centre[i]);
            w.u32(static_cast<std::uint32_t>(c - centre_items.begin()));
        }
        w.u64(centre_items.size());
        for (const auto item : centre_items) w.u32(item);
        std::vector<std::pair<std::uint32_t, fingerprint_type>> indexed;
        indexed.reserve(spc.m_index.size());
        spc.m_index.for_each([&](const typename detail::multi_index<Bits>::key_type& fp, std::uint32_t item) {
            indexed.emplace_back(item, fingerprint_type(fp));
        });
        std::sort(indexed.begin(), indexed.end(), [](const auto& a, const auto& b) { return a.first < b.first; });
        w.u64(indexed.size());
        for (const auto& [item, fp] : indexed) {
            w.u32(item);
            w.fingerprint(fp);
        }
        w.finish();
    }

    /// Replaces `self` with the clusterer read from `is` (strong guarantee). Throws
    /// `format_error`, `io_error`.
    template <std::size_t Bits>
    static void load(SinglePassClusterer<Bits>& self, std::istream& is) {
        using C = SinglePassClusterer<Bits>;
        detail::binary_reader r(is);
        r.header(C::magic, static_cast<std::uint32_t>(Bits));
        std::size_t at = r.offset();
        cluster_options opt;
        opt.threshold = r.u32();
        const std::uint32_t match = r.u32();
        if (opt.threshold > C::max_threshold || match > 1)
            detail::throw_format_error("semfp::SinglePassClusterer: invalid options", at);
        opt.match = static_cast<match_policy>(match);
        C f(opt);
        const std::uint64_t items = r.u64();
        if (items >= 0xFFFFFFFFu) detail::throw_format_error("semfp::SinglePassClusterer: too many items", at + 8);
        // Cluster numbers go to m_item_centre first and become centre items below.
        for (std::uint64_t i = 0; i < items; ++i) {
            at = r.offset();
            const std::uint64_t id = r.u64();
            const std::uint32_t cluster = r.u32();
            const bool in_order = f.m_ids_ascending && (i == 0 || id > f.m_item_id[i - 1]);
            if (!in_order && f.contains(id)) detail::throw_format_error("semfp::SinglePassClusterer: duplicate id", at);
            f.m_item_id.reserve_for(id);
            f.m_item_centre.reserve_one_more();
            f.m_item_next.reserve_one_more();
            detail::id_table map;
            if (!in_order) {
                if (f.m_ids_ascending) map = f.make_id_map(i + 1);
                else f.m_ids.reserve(1, f.id_of());
            }
            f.m_item_id.push_back(id);
            f.m_item_centre.push_back(cluster);
            f.m_item_next.push_back(static_cast<std::uint32_t>(i));
            if (!in_order) {
                if (f.m_ids_ascending) {
                    f.m_ids.swap(map);
                    f.m_ids_ascending = false;
                }
                f.m_ids.insert(id, static_cast<std::uint32_t>(i));
            }
        }
        at = r.offset();
        const std::uint64_t clusters = r.u64();
        if (clusters > items) detail::throw_format_error("semfp::SinglePassClusterer: too many clusters", at);
        std::vector<std::uint32_t> centre_items;
        centre_items.reserve(static_cast<std::size_t>(clusters));
        for (std::uint64_t c = 0; c < clusters; ++c) {
            at = r.offset();
            const std::uint32_t item = r.u32();
            if (item >= items || f.m_item_centre[item] != c || (!centre_items.empty() && item <= centre_items.back()))
                detail::throw_format_error("semfp::SinglePassClusterer: inconsistent centre", at);
            centre_items.push_back(item);
        }
        // Resolve cluster numbers and rebuild the member lists (arrival order).
        for (std::uint32_t i = 0; i < items; ++i) {
            const std::uint32_t c = f.m_item_centre[i];
            if (c >= clusters || centre_items[c] > i)
                detail::throw_format_error("semfp::SinglePassClusterer: inconsistent cluster number", at);
            f.m_item_centre[i] = centre_items[c];
            if (centre_items[c] != i) f.link_member(centre_items[c], i);
        }
        f.m_clusters = centre_items.size();
        at = r.offset();
        const std::uint64_t indexed = r.u64();
        if (indexed > items) detail::throw_format_error("semfp::SinglePassClusterer: too many indexed items", at);
        std::uint64_t centres_seen = 0;
        std::int64_t previous = -1;
        for (std::uint64_t j = 0; j < indexed; ++j) {
            at = r.offset();
            const std::uint32_t item = r.u32();
            const auto fp = r.template fingerprint<Bits>();
            if (item >= items || static_cast<std::int64_t>(item) <= previous)
                detail::throw_format_error("semfp::SinglePassClusterer: inconsistent index entry", at);
            previous = item;
            if (f.m_item_centre[item] == item) ++centres_seen;
            else if (opt.match == match_policy::centres)
                detail::throw_format_error("semfp::SinglePassClusterer: indexed item is not a centre", at);
            f.m_index.reserve_for(fp.data());
            f.m_index.insert(fp.data(), item);
        }
        if (centres_seen != clusters)
            detail::throw_format_error("semfp::SinglePassClusterer: centre fingerprints missing", r.offset());
        r.finish();
        self.swap(f);
    }
};

}  // namespace detail
}  // namespace v0
}  // namespace semfp

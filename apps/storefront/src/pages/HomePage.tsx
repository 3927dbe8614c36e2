import { useCollections, useProducts } from '@cartwheel/react';
import type { CollectionV2 } from '@cartwheel/sdk';
import { Link } from 'react-router';
import { useDocumentTitle } from '../components/hooks.ts';
import { ProductGrid } from '../components/ProductCard.tsx';
import { ProductImage } from '../components/ProductImage.tsx';
import { ErrorMessage, Loading } from '../components/Status.tsx';
import { useStoreConfig } from '../components/store-config.ts';

const FEATURED_COUNT = 4;

export function HomePage() {
  const { storeName } = useStoreConfig();
  useDocumentTitle();
  const collections = useCollections({ paging: { limit: 50 } });
  // the first products in the merchant's own order
  const featured = useProducts({ paging: { limit: FEATURED_COUNT } });

  return (
    <>
      <section className="hero">
        <h1>{storeName}</h1>
        <p>Everyday goods, made to last. Browse our collections or see everything we sell.</p>
        <Link to="/products" className="button">
          Shop all products
        </Link>
      </section>

      <section aria-labelledby="collections-heading" className="section">
        <h2 id="collections-heading">Collections</h2>
        {collections.isPending ? (
          <Loading label="Loading collections…" />
        ) : collections.isError ? (
          <ErrorMessage
            what="the collections"
            error={collections.error}
            retry={() => collections.refetch()}
          />
        ) : collections.data.items.length === 0 ? (
          <p>No collections yet.</p>
        ) : (
          <ul className="collection-grid" aria-label="Collections">
            {collections.data.items.map((collection) => (
              <li key={collection.id}>
                <CollectionCard collection={collection} />
              </li>
            ))}
          </ul>
        )}
      </section>

      <section aria-labelledby="featured-heading" className="section">
        <div className="section__header">
          <h2 id="featured-heading">Featured products</h2>
          <Link to="/products">View all</Link>
        </div>
        {featured.isPending ? (
          <Loading label="Loading products…" />
        ) : featured.isError ? (
          <ErrorMessage
            what="the featured products"
            error={featured.error}
            retry={() => featured.refetch()}
          />
        ) : (
          <ProductGrid products={featured.data.items} label="Featured products" />
        )}
      </section>
    </>
  );
}

function CollectionCard({ collection }: { collection: CollectionV2 }) {
  const count = collection.assignedProductsCount ?? 0;
  return (
    <Link to={`/collections/${collection.slug}`} className="collection-card">
      <ProductImage image={collection.image} alt={collection.name ?? ''} className="collection-card__image" />
      <span className="collection-card__text">
        <span className="collection-card__name">{collection.name}</span>
        <span className="collection-card__count">
          {count} {count === 1 ? 'product' : 'products'}
        </span>
      </span>
    </Link>
  );
}
